import { listProjectsInput, listProjectsOutput } from '../../../../core/runtime/pm/projectContracts';
import { defineTool } from '../../../toolDefinition';

export const listProjectsTool = defineTool({
  name: 'list_projects',
  family: 'pm',
  title: 'List projects',
  description: 'Every project: name, working directory, status and assigned agents.',
  input: listProjectsInput,
  output: listProjectsOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (_args, { services }) => ({ success: true as const, projects: await services.projects.list() }),
});
