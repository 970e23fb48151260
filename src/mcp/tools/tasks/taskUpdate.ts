import { taskUpdateInput, taskOutput } from '../../../core/tasks/taskContracts';
import { defineTool } from '../../toolDefinition';

export const taskUpdateTool = defineTool({
  name: 'task_update',
  family: 'tasks',
  title: 'Update task',
  description:
    'Update a task: title, description, priority, type, assignee, comma-separated labels; cancel or reopen it with status.',
  input: taskUpdateInput,
  output: taskOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => {
    const task = await services.tasks.update(args);
    if (task.status === 'cancelled') await services.scheduling.taskEnded(task.id); // its marks and awarded calls end with it
    return task;
  },
});
