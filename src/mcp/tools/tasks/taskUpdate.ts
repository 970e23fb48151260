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
  handler: (args, { services }) => services.tasks.update(args),
});
