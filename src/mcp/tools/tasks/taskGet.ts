import { taskGetInput } from '../../../core/tasks/taskContracts';
import { defineTool } from '../../toolDefinition';
import { taskOutput } from './outputs';

export const taskGetTool = defineTool({
  name: 'task_get',
  family: 'tasks',
  title: 'Get task',
  description: 'Get task details: seed 002 fields, tracking fields (goal, snapshot, outcome, files changed), sub-tasks and the decision/issue/milestone timeline. Sessions: session_list.',
  input: taskGetInput,
  output: taskOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.tasks.get(args.id),
});
