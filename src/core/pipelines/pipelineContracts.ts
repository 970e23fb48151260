import { z } from 'zod';
import { efforts } from './engine/flowTemplate';
import { severities } from './engine/verdict';

/** Schema pieces shared by the pipeline tools (seed 003's payloads). */

export const workspaceInput = z
  .string()
  .min(1)
  .max(500)
  .describe('Pipeline workspace path from pipeline_init / pipeline_init_with_context, e.g. ".specs/20260401-fix-auth-timeout" (must stay inside .specs/)');

export const flagsSchema = z
  .looseObject({
    auto: z.boolean().optional().describe('--auto: pass checkpoints automatically (only honoured when the server allows agent checkpoint decisions)'),
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
  verdict_parsed: z.string().nullable().describe('APPROVE | APPROVE_WITH_NOTES | REVISE | PASS | PASS_WITH_NOTES | FAIL, for review phases'),
  findings: z.array(findingOutput).describe('Review findings with severities'),
  next_action_hint: z.enum(['proceed', 'revision_required', 'setup_continue']).describe('proceed: call pipeline_next_action; revision_required: show the findings, the phase runs again; setup_continue: an internal setup step finished'),
  warning: z.string(),
  display_message: z.string(),
});
