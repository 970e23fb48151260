import { taskCreateInput, taskOutput } from '../../../core/tasks/taskContracts';
import { defineTool } from '../../toolDefinition';

export const taskCreateTool = defineTool({
  name: 'task_create',
  family: 'tasks',
  title: 'Create task',
  description:
    'Create a new task (status open). Start it with worker_command (a worktree and a launch command), session_start, or start_task with task_id.',
  input: taskCreateInput,
  output: taskOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.tasks.create(args),
});
