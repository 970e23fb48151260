import { taskListInput, taskListOutput } from '../../../core/tasks/taskContracts';
import { defineTool } from '../../toolDefinition';

export const taskListTool = defineTool({
  name: 'task_list',
  title: 'List tasks',
  description:
    'Get list of tasks, newest first, in compact rows; filter by status and assignee, page with offset/nextOffset. Tracked tasks (start_task) are listed too.',
  input: taskListInput,
  output: taskListOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.tasks.list(args),
});
