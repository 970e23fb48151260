import { listAgentsInput, listAgentsOutput } from '../../../../core/runtime/pm/projectContracts';
import { defineTool } from '../../../toolDefinition';

export const listAgentsTool = defineTool({
  name: 'list_agents',
  family: 'pm',
  aliasOf: 'agent_list',
  title: 'List agents',
  description: 'Every agent: ai_type, model, projects, whether it has a passkey; to know who can take a handoff.',
  input: listAgentsInput,
  output: listAgentsOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (_args, { services }) => ({
    success: true as const,
    agents: await services.projectTasks.listAgents(),
  }),
});
