import { reportExecutionStartInput, reportExecutionStartOutput } from '../../../../core/runtime/pm/runtimeContracts';
import { defineTool } from '../../../toolDefinition';
import { sessionTokenOf } from '../../../serverLogin';

export const reportExecutionStartTool = defineTool({
  name: 'report_execution_start',
  family: 'pm',
  deprecated: 'get_my_task',
  title: 'Report execution start (deprecated)',
  description:
    "Deprecated: get_my_task records the start by itself. Opens an execution log of a task of the session's project and returns its execution_id.",
  input: reportExecutionStartInput,
  output: reportExecutionStartOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services, login }) => ({
    success: true as const,
    ...(await services.runtime.deprecated.reportExecutionStart(
      sessionTokenOf(args.session_token, login),
      args.task_id,
    )),
  }),
});
