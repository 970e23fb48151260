import { taskGetInput, taskGetOutput } from '../../../core/tasks/taskContracts';
import { defineTool } from '../../toolDefinition';

export const taskGetTool = defineTool({
  name: 'task_get',
  family: 'tasks',
  title: 'Get task',
  description:
    "Get task details: the task's fields, the tracking fields (goal, snapshot, outcome, files changed), sub-tasks, the decision/issue/milestone timeline, and dependencies (what it depends on and what depends on it in its workflow's plan graph, and whether it is ready), and cost (runs, dollars and tokens its agents' execution logs reported, per agent and with sub-tasks). Sessions: session_list.",
  input: taskGetInput,
  output: taskGetOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.tasks.answer(args.id),
});
