import { taskListInput, taskListOutput } from '../../../core/tasks/taskContracts';
import type { TaskListInput, TaskListResult } from '../../../core/tasks/taskContracts';
import type { Services } from '../../../app/services';
import { defineTool } from '../../toolDefinition';

/** `ready: true`: open tasks none of whose dependencies is undone, paged like any list. */
async function readyTasks(services: Services, args: TaskListInput): Promise<TaskListResult> {
  if (args.status !== undefined && args.status !== 'open') return { tasks: [], total: 0, nextOffset: null };
  const blocked = await services.graphs.blockedTasks();
  const ready: TaskListResult['tasks'] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const page: TaskListResult = await services.tasks.list({
      ...args,
      status: 'open',
      ready: undefined,
      limit: 500,
      offset,
    });
    ready.push(...page.tasks.filter((t) => !blocked.has(t.id)));
    offset = page.nextOffset;
  }
  const end = args.offset + args.limit;
  return { tasks: ready.slice(args.offset, end), total: ready.length, nextOffset: end < ready.length ? end : null };
}

export const taskListTool = defineTool({
  name: 'task_list',
  family: 'tasks',
  title: 'List tasks',
  description:
    'Get list of tasks, newest first, in compact rows; filter by status and assignee, or ready: true for the open tasks whose dependencies are all done; page with offset/nextOffset. Tracked tasks (start_task) are listed too.',
  input: taskListInput,
  output: taskListOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => (args.ready ? readyTasks(services, args) : services.tasks.list(args)),
});
