import { z } from 'zod';
import { taskListInput } from '../../../core/tasks/taskContracts';
import { defineTool } from '../../toolDefinition';
import { taskRowOutput } from './outputs';

export const taskListTool = defineTool({
  name: 'task_list',
  family: 'tasks',
  title: 'List tasks',
  description: 'Get list of tasks, newest first, in compact rows; filter by status and assignee, page with offset/nextOffset. Tracked tasks (start_task) are listed too.',
  input: taskListInput,
  output: z.object({
    tasks: z.array(taskRowOutput),
    total: z.number().describe('Tasks matching the filters'),
    nextOffset: z.number().nullable().describe('Pass as offset for the next page; null on the last page'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.tasks.list(args),
});
