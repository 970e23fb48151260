import { getProjectInput, getProjectOutput } from '../../../../core/runtime/pm/projectContracts';
import { defineTool } from '../../../toolDefinition';

export const getProjectTool = defineTool({
  name: 'get_project',
  family: 'pm',
  title: 'Get project',
  description: 'One project: name, working directory, status, assigned agents and its tasks counted by status.',
  input: getProjectInput,
  output: getProjectOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => ({
    success: true as const,
    project: await services.projects.get(args.project_id),
  }),
});
