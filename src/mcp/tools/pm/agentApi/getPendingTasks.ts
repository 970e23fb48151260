import { getPendingTasksInput, getPendingTasksOutput } from '../../../../core/runtime/pm/runtimeContracts';
import { defineTool } from '../../../toolDefinition';
import { sessionTokenOf } from '../../../serverLogin';

export const getPendingTasksTool = defineTool({
  name: 'get_pending_tasks',
  family: 'pm',
  deprecated: 'get_my_task',
  title: 'Get pending tasks (deprecated)',
  description: "Deprecated: use get_my_task. The unfinished tasks of the session's project assigned to its agent.",
  input: getPendingTasksInput,
  output: getPendingTasksOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services, login }) => ({
    success: true as const,
    ...(await services.runtime.deprecated.pendingTasks(sessionTokenOf(args.session_token, login))),
  }),
});
