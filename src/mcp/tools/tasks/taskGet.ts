import { taskGetInput, taskOutput } from '../../../core/tasks/taskContracts';
import { defineTool } from '../../toolDefinition';

export const taskGetTool = defineTool({
  name: 'task_get',
  title: 'Get task',
  description:
    "Get task details: the task's fields, the tracking fields (goal, snapshot, outcome, files changed), sub-tasks and the decision/issue/milestone timeline. Sessions: session_list.",
  input: taskGetInput,
  output: taskOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.tasks.get(args.id),
});
