import { z } from 'zod';
import { defineTool } from '../../toolDefinition';
import { flagsSchema } from '../../../core/pipelines/pipelineContracts';

export const pipelineInitTool = defineTool({
  name: 'pipeline_init',
  family: 'pipeline',
  title: 'Pipeline: detect input',
  description:
    'Parse the arguments of a pipeline request (text, a GitHub issue URL, a Jira issue URL, or an existing .specs/ workspace to resume), detect the source type and flags (--auto, --nopr, --debug, --discuss, --effort S|M|L) and propose a workspace. No side effects. Then call pipeline_init_with_context (new pipeline) or pipeline_next_action (resume).',
  input: z.strictObject({
    arguments: z.string().max(50_000).describe('The raw argument string given to the pipeline command'),
    current_branch: z.string().max(300).optional().describe('Output of git branch --show-current'),
  }),
  output: z.looseObject({
    resume_mode: z.literal('auto').optional().describe('Present when the input names an existing pipeline workspace'),
    workspace: z.string().optional(),
    instruction: z.string().optional(),
    spec_name: z.string().optional(),
    source_type: z.enum(['github_issue', 'jira_issue', 'text', 'workspace']).optional(),
    source_url: z.string().nullable().optional(),
    source_id: z.string().nullable().optional(),
    core_text: z.string().optional(),
    flags: flagsSchema.optional(),
    fetch_needed: z.looseObject({ type: z.string(), fields: z.array(z.string()), instruction: z.string() }).nullable().optional(),
    errors: z.array(z.string()).optional().describe('Input errors; nothing else is returned then'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.pipelines.init(args),
});
