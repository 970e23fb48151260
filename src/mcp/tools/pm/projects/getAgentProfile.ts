import { getAgentProfileInput, getAgentProfileOutput } from '../../../../core/runtime/pm/projectContracts';
import { defineTool } from '../../../toolDefinition';

export const getAgentProfileTool = defineTool({
  name: 'get_agent_profile',
  family: 'pm',
  title: 'Get agent profile',
  description: 'One agent: its role (system_prompt), ai_type, model, projects and whether it has a passkey.',
  input: getAgentProfileInput,
  output: getAgentProfileOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => ({
    success: true as const,
    agent: await services.projectTasks.agentProfile(args.agent_id),
  }),
});
