import {
  reportExecutionCompleteInput,
  reportExecutionCompleteOutput,
} from '../../../../core/runtime/pm/runtimeContracts';
import { defineTool } from '../../../toolDefinition';
import { sessionTokenOf } from '../../../serverLogin';

export const reportExecutionCompleteTool = defineTool({
  name: 'report_execution_complete',
  family: 'pm',
  deprecated: 'report_completed',
  title: 'Report execution complete (deprecated)',
  description:
    "Deprecated: use report_completed. Closes an execution log with the CLI's exit code, duration and log file.",
  input: reportExecutionCompleteInput,
  output: reportExecutionCompleteOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services, login }) => ({
    success: true as const,
    ...(await services.runtime.deprecated.reportExecutionComplete(
      sessionTokenOf(args.session_token, login),
      args.execution_id,
      { exitCode: args.exit_code, durationSeconds: args.duration_seconds, logFilePath: args.log_file_path },
    )),
  }),
});
