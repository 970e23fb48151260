import { getMyTaskInput, getMyTaskOutput } from '../../../../core/runtime/pm/runtimeContracts';
import { defineTool } from '../../../toolDefinition';
import { sessionTokenOf } from '../../../serverLogin';

export const getMyTaskTool = defineTool({
  name: 'get_my_task',
  family: 'pm',
  waits: true,
  title: 'Get my task',
  description:
    'Agent instance API: the task to work on now (title, description, working_directory, the latest context and handoff) and what to do next, or has_task false. Records the start of the run. With wait_ms it waits for a task to be assigned and returns the moment one is.',
  input: getMyTaskInput,
  output: getMyTaskOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services, login }) => ({
    success: true as const,
    ...(await services.runtime.myTask(sessionTokenOf(args.session_token, login), args.wait_ms)),
  }),
});
