import { z } from 'zod';
import { agentListInput } from '../../../core/agents/agentContracts';
import { agentListResult } from '../../../core/agents/agentResults';
import { defineTool } from '../../toolDefinition';
import { agentSummaryOutput, problemOutput } from './outputs';

export const agentListTool = defineTool({
  name: 'agent_list',
  family: 'tasks',
  title: 'List agents',
  description: 'List agent definitions (.agent-ledger/agents/*.yaml|md; coder and reviewer are created on first use). Files that cannot be read are listed under problems.',
  input: agentListInput,
  output: z.object({ agents: z.array(agentSummaryOutput), problems: z.array(problemOutput) }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (_args, { services }) => agentListResult(services.agents),
});
