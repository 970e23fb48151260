import { agentListInput, agentListOutput } from '../../../core/agents/agentContracts';
import { defineTool } from '../../toolDefinition';

export const agentListTool = defineTool({
  name: 'agent_list',
  family: 'tasks',
  title: 'List agents',
  description:
    'List agent definitions (.agent-ledger/agents/*.yaml|md; coder and reviewer are created on first use). Files that cannot be read are listed under problems.',
  input: agentListInput,
  output: agentListOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (_args, { services }) => services.agents.summaries(),
});
