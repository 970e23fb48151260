import { reportExecutionStartInput, reportExecutionStartOutput } from '../../../core/runtime/runtimeContracts';
import { defineTool } from '../../toolDefinition';

export const reportExecutionStartTool = defineTool({
  name: 'report_execution_start',
  title: 'Report execution start (deprecated)',
  description:
    "Deprecated: get_my_task records the start by itself. Opens an execution log of a task of the session's project and returns its execution_id.",
  input: reportExecutionStartInput,
  output: reportExecutionStartOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => ({ success: true as const, ...(await services.runtime.deprecated.reportExecutionStart(args.session_token, args.task_id)) }),
});
