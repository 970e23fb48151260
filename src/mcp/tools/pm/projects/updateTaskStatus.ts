import { updateTaskStatusInput, updateTaskStatusOutput } from '../../../../core/runtime/pm/projectContracts';
import { defineTool } from '../../../toolDefinition';

export const updateTaskStatusTool = defineTool({
  name: 'update_task_status',
  family: 'pm',
  aliasOf: 'task_update',
  title: 'Update task status',
  description:
    'Move a task to another status; in_progress with an assignee in a project lets the runner start that agent. done is refused while a sub-task is open.',
  input: updateTaskStatusInput,
  output: updateTaskStatusOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => ({
    success: true as const,
    ...(await services.projectTasks.updateStatus(args.task_id, args.status)),
  }),
});
