import { taskCreateInput, taskCreateOutput } from '../../../core/tasks/taskContracts';
import { defineTool } from '../../toolDefinition';
import { idempotentCreate } from '../idempotentCreate';

export const taskCreateTool = defineTool({
  name: 'task_create',
  family: 'tasks',
  idempotent: true,
  title: 'Create task',
  description:
    'Create a new task (status open). Start it with worker_command (a worktree and a launch command), session_start, or start_task with task_id.',
  input: taskCreateInput,
  output: taskCreateOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, ctx) => idempotentCreate('task_create', args, ctx, (input) => ctx.services.tasks.create(input)),
});
