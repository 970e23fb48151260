import { getTaskInput, getTaskOutput } from '../../../../core/runtime/pm/projectContracts';
import { defineTool } from '../../../toolDefinition';

export const getTaskTool = defineTool({
  name: 'get_task',
  family: 'pm',
  aliasOf: 'task_get',
  title: 'Get task',
  description: 'One task with its project, assignee and sub-tasks (the same task task_get shows).',
  input: getTaskInput,
  output: getTaskOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => ({
    success: true as const,
    task: await services.projectTasks.get(args.task_id),
  }),
});
