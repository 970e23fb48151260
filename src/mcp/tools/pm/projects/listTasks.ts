import { listTasksInput, listTasksOutput } from '../../../../core/runtime/pm/projectContracts';
import { defineTool } from '../../../toolDefinition';

export const listTasksTool = defineTool({
  name: 'list_tasks',
  family: 'pm',
  aliasOf: 'task_list',
  title: 'List project tasks',
  description: "Tasks of a project (the ledger's own tasks), optionally by status or assignee.",
  input: listTasksInput,
  output: listTasksOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => ({
    success: true as const,
    tasks: await services.projectTasks.list(args.project_id, { status: args.status, assignee: args.assignee_id }),
  }),
});
