import { listActiveProjectsInput, listActiveProjectsOutput } from '../../../../core/runtime/pm/projectContracts';
import { defineTool } from '../../../toolDefinition';

export const listActiveProjectsWithAgentsTool = defineTool({
  name: 'list_active_projects_with_agents',
  family: 'pm',
  audience: 'runner',
  title: 'Active projects with agents',
  description:
    'Runner API: active projects with their working directory and the agents assigned to them. The runner manages each (agent, project) pair on its own; one agent may appear in several projects.',
  input: listActiveProjectsInput,
  output: listActiveProjectsOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (_args, { services }) => ({
    success: true as const,
    projects: await services.projects.activeWithAgents(),
  }),
});
