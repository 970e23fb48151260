import { startTaskInput, startTaskOutput } from '../../../core/tasks/trackingContracts';
import { defineTool } from '../../toolDefinition';
import { parseId } from '../../../core/ids';
import { idempotentCreate } from '../idempotentCreate';

export const startTaskTool = defineTool({
  name: 'start_task',
  family: 'tracking',
  idempotent: true,
  title: 'Start task',
  description:
    'Start a new task (or sub-task) and create a Git snapshot of the whole working state, so complete_task can report exactly which files this task changed. Call at the start of each task.',
  input: startTaskInput,
  output: startTaskOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, ctx) =>
    idempotentCreate('start_task', args, ctx, async (input) => {
      const started = await ctx.services.tracking.startTask(input);
      await ctx.services.scheduling.taskStarted(parseId('task', started.task_id), input.areas ?? []); // its areas become marks of the stigmergy field
      return started;
    }),
});
