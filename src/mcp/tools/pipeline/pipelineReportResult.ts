import { pipelineReportResultInput, pipelineReportResultOutput } from '../../../core/pipelines/pipelineContracts';
import { defineTool } from '../../toolDefinition';

export const pipelineReportResultTool = defineTool({
  name: 'pipeline_report_result',
  family: 'pipeline',
  title: 'Pipeline: report a phase result',
  description:
    "Record the result of the running phase: metrics, artifact validation (the output file must exist, be non-empty and be rewritten for this run), review verdict parsing (APPROVE / APPROVE_WITH_NOTES / REVISE, PASS / PASS_WITH_NOTES / FAIL) with findings, and advance the state. Same as pipeline_next_action's previous_action_complete.",
  input: pipelineReportResultInput,
  output: pipelineReportResultOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.pipelines.reportResult(args),
});
