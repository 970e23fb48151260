import { reportCompletedInput, reportCompletedOutput } from '../../../../core/runtime/pm/runtimeContracts';
import { defineTool } from '../../../toolDefinition';
import { sessionTokenOf } from '../../../serverLogin';

export const reportCompletedTool = defineTool({
  name: 'report_completed',
  family: 'pm',
  title: 'Report completed',
  description:
    'Agent instance API: report the end of the task (result success, failed or blocked, with an optional summary and next steps) and end the session. success marks the task done (refused while a sub-task is open), failed marks it failed, blocked puts it back to open with the summary as its blocker.',
  input: reportCompletedInput,
  output: reportCompletedOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services, login }) => ({
    success: true as const,
    ...(await services.runtime.reportCompleted(
      sessionTokenOf(args.session_token, login),
      args.result,
      args.summary,
      args.next_steps,
    )),
  }),
});
