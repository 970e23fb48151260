import { z } from 'zod';
import { agentGetInput } from '../../../core/agents/agentContracts';
import { agentGetResult } from '../../../core/agents/agentResults';
import { defineTool } from '../../toolDefinition';
import { agentSummaryOutput } from './outputs';

export const agentGetTool = defineTool({
  name: 'agent_get',
  family: 'tasks',
  title: 'Get agent',
  description: 'Get agent definition details: client, model, scope (read/write/exclude globs), config and prompt.',
  input: agentGetInput,
  output: agentSummaryOutput.extend({ config: z.record(z.string(), z.unknown()), promptContent: z.string() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => agentGetResult(services.agents, args.name),
});
