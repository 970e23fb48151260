import { z } from 'zod';
import { defineTool } from '../../toolDefinition';
import { reportResultOutput, workspaceInput } from '../../../core/pipelines/pipelineContracts';

export const pipelineReportResultTool = defineTool({
  name: 'pipeline_report_result',
  family: 'pipeline',
  title: 'Pipeline: report a phase result',
  description:
    "Record the result of the running phase: metrics, artifact validation (the output file must exist, be non-empty and be rewritten for this run), review verdict parsing (APPROVE / APPROVE_WITH_NOTES / REVISE, PASS / PASS_WITH_NOTES / FAIL) with findings, and advance the state. Same as pipeline_next_action's previous_action_complete.",
  input: z.strictObject({
    workspace: workspaceInput,
    phase: z.string().min(1).max(100).describe('Phase id of the action being reported (e.g. "phase-3", "phase-5")'),
    tokens_used: z.number().min(0).optional().describe('Tokens the phase used'),
    duration_ms: z.number().min(0).optional().describe('Wall-clock duration (ms)'),
    model: z.string().max(200).optional().describe('Model used (e.g. "sonnet", "opus")'),
    setup_only: z.boolean().optional().describe('true when the exec was setup-only'),
  }),
  output: reportResultOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.pipelines.reportResult(args),
});
