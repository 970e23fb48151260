import { z } from 'zod';
import { waitMs } from '../contracts/callOptions';
import { efforts } from './engine/flowTemplate';
import { severities } from './engine/verdict';
import { sourceTypes } from './engine/pipelineState';

/**
 * The four pipeline tools (the pipeline contract: snake_case fields, the seed's payloads field for field).
 * `workspace` is the pipeline's folder under `.specs/`: the seed's field name, which is the
 * tools' contract (agents written for it send `workspace`), so the tools keep it. Everywhere
 * else it is the pipeline's folder: the CLI's argument is `<pipeline>`, so
 * `agent-ledger --workspace <dir> pipeline next <pipeline>` never says "workspace" twice.
 */

export const workspaceInput = z
  .string()
  .min(1)
  .max(500)
  .describe(
    'The pipeline\'s folder (the "workspace" pipeline_init / pipeline_init_with_context returned), e.g. ".specs/20260401-fix-auth-timeout" (must stay inside .specs/)',
  );

export const flagsSchema = z
  .looseObject({
    auto: z
      .boolean()
      .optional()
      .describe(
        '--auto: pass checkpoints automatically (only honoured when the server allows agent checkpoint decisions)',
      ),
    skip_pr: z.boolean().optional().describe('--nopr: skip PR creation'),
    debug: z.boolean().optional().describe('--debug'),
    discuss: z.boolean().optional().describe('--discuss: ask clarifying questions first (text sources only)'),
    effort_override: z.enum(efforts).nullable().optional().describe('--effort S|M|L given by the user'),
    current_branch: z.string().max(300).nullable().optional().describe('Output of git branch --show-current'),
  })
  .describe('Parsed flags from pipeline_init');

export const findingOutput = z.object({
  severity: z.enum(severities),
  description: z.string(),
});

export const reportResultOutput = z.object({
  state_updated: z.boolean().describe('True when the state advanced'),
  artifact_written: z.string().nullable().describe('The artifact(s) the phase wrote, e.g. "review-design.md"'),
  verdict_parsed: z
    .string()
    .nullable()
    .describe('APPROVE | APPROVE_WITH_NOTES | REVISE | PASS | PASS_WITH_NOTES | FAIL, for review phases'),
  findings: z.array(findingOutput).describe('Review findings with severities'),
  next_action_hint: z
    .enum(['proceed', 'revision_required', 'setup_continue'])
    .describe(
      'proceed: call pipeline_next_action; revision_required: show the findings, the phase runs again; setup_continue: an internal setup step finished',
    ),
  warning: z.string(),
  display_message: z.string(),
});

const skippedPhase = z.object({ phase_id: z.string(), label: z.string() });
const effortOption = z.object({ skipped_phases: z.array(skippedPhase), recommended: z.boolean() });

export const pipelineInitInput = z.strictObject({
  arguments: z.string().max(50_000).describe('The raw argument string given to the pipeline command'),
  current_branch: z.string().max(300).optional().describe('Output of git branch --show-current'),
});

export const pipelineInitOutput = z.looseObject({
  resume_mode: z.literal('auto').optional().describe('Present when the input names an existing pipeline workspace'),
  workspace: z.string().optional(),
  instruction: z.string().optional(),
  spec_name: z.string().optional(),
  source_type: z.enum(sourceTypes).optional(),
  source_url: z.string().nullable().optional(),
  source_id: z.string().nullable().optional(),
  core_text: z.string().optional(),
  flags: flagsSchema.optional(),
  fetch_needed: z
    .looseObject({ type: z.string(), fields: z.array(z.string()), instruction: z.string() })
    .nullable()
    .optional(),
  errors: z.array(z.string()).optional().describe('Input errors; nothing else is returned then'),
});

export const externalContextInput = z.looseObject({
  github_labels: z.array(z.string().max(200)).max(100).optional(),
  github_title: z.string().max(2000).optional(),
  github_body: z.string().max(100_000).optional(),
  jira_issue_type: z.string().max(200).optional(),
  jira_story_points: z.number().optional(),
  jira_summary: z.string().max(2000).optional(),
  jira_description: z.string().max(100_000).optional(),
});

export const pipelineInitWithContextInput = z.strictObject({
  workspace: workspaceInput,
  source_id: z.string().max(200).nullable().optional().describe('Source identifier (e.g. "42", "SOA-123")'),
  source_url: z.string().max(2000).nullable().optional().describe('Original GitHub/Jira URL'),
  external_context: externalContextInput.nullable().optional().describe('Fetched GitHub/Jira fields'),
  flags: flagsSchema.nullable().optional().describe('Parsed flags from pipeline_init'),
  task_text: z.string().max(100_000).nullable().optional().describe('Original task text (text sources only)'),
  user_confirmation: z
    .strictObject({
      effort: z.enum(efforts).describe('Confirmed effort'),
      workspace_slug: z
        .string()
        .max(200)
        .nullable()
        .optional()
        .describe('Final workspace slug, e.g. "fix-auth-timeout"'),
      use_current_branch: z
        .boolean()
        .nullable()
        .optional()
        .describe('Work on the current branch instead of creating one'),
      enriched_request_body: z
        .string()
        .max(100_000)
        .nullable()
        .optional()
        .describe('The request body to write to request.md'),
    })
    .nullable()
    .optional()
    .describe('Confirmed effort and branch decision (confirmation call)'),
  discussion_answers: z
    .string()
    .max(100_000)
    .nullable()
    .optional()
    .describe("The user's answers to the discussion questions"),
});

export const pipelineInitWithContextOutput = z.looseObject({
  needs_user_confirmation: z
    .looseObject({
      detected_effort: z.enum(efforts),
      effort_options: z.object({ S: effortOption, M: effortOption, L: effortOption }),
      current_branch: z.string().nullable(),
      is_main_branch: z.boolean(),
      enriched_request_body: z.string(),
      message: z.string(),
    })
    .optional(),
  needs_discussion: z.looseObject({ questions: z.array(z.string()), message: z.string() }).optional(),
  ready: z.boolean().optional(),
  workspace: z.string().optional(),
  effort: z.enum(efforts).optional(),
  flow_template: z.string().optional(),
  skipped_phases: z.array(z.string()).optional(),
  request_md_content: z.string().optional(),
  branch: z.string().nullable().optional(),
  create_branch: z.boolean().optional(),
});

export const pipelineNextActionInput = z.strictObject({
  workspace: workspaceInput,
  previous_action_complete: z
    .boolean()
    .optional()
    .describe('true after the previous spawn_agent / exec / write_file action finished'),
  previous_tokens: z.number().min(0).optional().describe('Tokens the previous action used'),
  previous_duration_ms: z.number().min(0).optional().describe('Duration of the previous action (ms)'),
  previous_model: z.string().max(200).optional().describe('Model the previous action used'),
  previous_setup_only: z.boolean().optional().describe('true when the previous exec was setup-only'),
  user_response: z
    .string()
    .max(20_000)
    .optional()
    .describe(
      'The user\'s answer to a checkpoint ("approve", "reject: comment"). Refused unless the server runs with --allow-agent-checkpoints: a person decides in VS Code or the CLI.',
    ),
  wait_ms: waitMs(
    0,
    'At a checkpoint or human gate: wait up to this many milliseconds for a person to decide (from any process) and return the next action the moment they do; 0 (default) returns at once',
  ),
});

/** The typed actions, flattened into one object (a tool's output schema is an object): `type` says which fields are set. */
export const pipelineNextActionOutput = z.looseObject({
  type: z.enum(['spawn_agent', 'checkpoint', 'exec', 'write_file', 'human_gate', 'done']),
  warning: z.string(),
  display_message: z.string(),
  report_result: reportResultOutput.nullable().describe('What the previous_action_complete report recorded'),
  agent: z.string().optional(),
  prompt: z
    .string()
    .optional()
    .describe('The 4-layer prompt: agent instructions, artifact paths, repository context, past pipelines'),
  model: z.string().optional(),
  phase: z.string().optional(),
  input_files: z.array(z.string()).optional(),
  output_file: z.string().optional(),
  parallel_task_ids: z
    .array(z.string())
    .nullable()
    .optional()
    .describe('When set, start one agent per task id in parallel'),
  name: z.string().optional(),
  present_to_user: z.string().optional(),
  options: z.array(z.string()).optional(),
  commands: z.array(z.string()).optional().describe('Argument array (never a shell string)'),
  setup_only: z.boolean().optional(),
  path: z.string().optional(),
  content: z.string().optional(),
  summary: z.string().optional(),
  summary_path: z.string().nullable().optional(),
});

export const pipelineReportResultInput = z.strictObject({
  workspace: workspaceInput,
  phase: z.string().min(1).max(100).describe('Phase id of the action being reported (e.g. "phase-3", "phase-5")'),
  tokens_used: z.number().min(0).optional().describe('Tokens the phase used'),
  duration_ms: z.number().min(0).optional().describe('Wall-clock duration (ms)'),
  model: z.string().max(200).optional().describe('Model used (e.g. "sonnet", "opus")'),
  setup_only: z.boolean().optional().describe('true when the exec was setup-only'),
});

export const pipelineReportResultOutput = reportResultOutput;

export type PipelineInitInput = z.infer<typeof pipelineInitInput>;
export type PipelineInitResult = z.infer<typeof pipelineInitOutput>;
export type ExternalContext = z.infer<typeof externalContextInput>;
export type PipelineInitWithContextInput = z.infer<typeof pipelineInitWithContextInput>;
export type PipelineInitWithContextResult = z.infer<typeof pipelineInitWithContextOutput>;
/** What the engine takes: `wait_ms` is the tool's business (pipelineWaits.ts). */
export type PipelineNextActionInput = Omit<z.infer<typeof pipelineNextActionInput>, 'wait_ms'>;
export type PipelineReportResultInput = z.infer<typeof pipelineReportResultInput>;
export type ReportResult = z.infer<typeof reportResultOutput>;
