import { z } from 'zod';
import { efforts } from '../../../core/pipelines/engine/flowTemplate';
import { defineTool } from '../../toolDefinition';
import { flagsSchema, workspaceInput } from '../../../core/pipelines/pipelineContracts';

const skippedPhase = z.object({ phase_id: z.string(), label: z.string() });
const effortOption = z.object({ skipped_phases: z.array(skippedPhase), recommended: z.boolean() });

export const pipelineInitWithContextTool = defineTool({
  name: 'pipeline_init_with_context',
  family: 'pipeline',
  title: 'Pipeline: confirm and create',
  description:
    'Three-call handshake that starts a pipeline. 1st call (neither discussion_answers nor user_confirmation): detects the effort and returns needs_user_confirmation (or needs_discussion with --discuss on a text source). Discussion call (discussion_answers): enriches the request. Confirmation call (user_confirmation): creates the workspace (state.json, request.md) and returns ready. Passing both is an error.',
  input: z.strictObject({
    workspace: workspaceInput,
    source_id: z.string().max(200).nullable().optional().describe('Source identifier (e.g. "42", "SOA-123")'),
    source_url: z.string().max(2000).nullable().optional().describe('Original GitHub/Jira URL'),
    external_context: z
      .looseObject({
        github_labels: z.array(z.string().max(200)).max(100).optional(),
        github_title: z.string().max(2000).optional(),
        github_body: z.string().max(100_000).optional(),
        jira_issue_type: z.string().max(200).optional(),
        jira_story_points: z.number().optional(),
        jira_summary: z.string().max(2000).optional(),
        jira_description: z.string().max(100_000).optional(),
      })
      .nullable()
      .optional()
      .describe('Fetched GitHub/Jira fields'),
    flags: flagsSchema.nullable().optional().describe('Parsed flags from pipeline_init'),
    task_text: z.string().max(100_000).nullable().optional().describe('Original task text (text sources only)'),
    user_confirmation: z
      .strictObject({
        effort: z.enum(efforts).describe('Confirmed effort'),
        workspace_slug: z.string().max(200).nullable().optional().describe('Final workspace slug, e.g. "fix-auth-timeout"'),
        use_current_branch: z.boolean().nullable().optional().describe('Work on the current branch instead of creating one'),
        enriched_request_body: z.string().max(100_000).nullable().optional().describe('The request body to write to request.md'),
      })
      .nullable()
      .optional()
      .describe('Confirmed effort and branch decision (confirmation call)'),
    discussion_answers: z.string().max(100_000).nullable().optional().describe("The user's answers to the discussion questions"),
  }),
  output: z.looseObject({
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
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.pipelines.initWithContext(args),
});
