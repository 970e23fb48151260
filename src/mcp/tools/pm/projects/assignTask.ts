import { assignTaskInput, assignTaskOutput } from '../../../../core/runtime/pm/projectContracts';
import { defineTool } from '../../../toolDefinition';

export const assignTaskTool = defineTool({
  name: 'assign_task',
  family: 'pm',
  title: 'Assign task',
  description:
    "Assign a task to an agent, in a project the agent belongs to (given, the task's own, or the agent's only one).",
  input: assignTaskInput,
  output: assignTaskOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => ({
    success: true as const,
    ...(await services.projectTasks.assign(args.task_id, args.assignee_id, args.project_id)),
  }),
});
