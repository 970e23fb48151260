import { agentGetInput, agentGetOutput } from '../../../core/agents/agentContracts';
import { defineTool } from '../../toolDefinition';

export const agentGetTool = defineTool({
  name: 'agent_get',
  family: 'tasks',
  title: 'Get agent',
  description: 'Get agent definition details: client, model, scope (read/write/exclude globs), config and prompt.',
  input: agentGetInput,
  output: agentGetOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.agents.get(args.name),
});
