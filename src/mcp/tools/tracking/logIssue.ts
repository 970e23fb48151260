import { z } from 'zod';
import { issueTypes } from '../../../core/tasks/taskModel';
import { defineTool } from '../../toolDefinition';
import { taskIdInput } from './schemas';

export const logIssueTool = defineTool({
  name: 'log_issue',
  family: 'tracking',
  title: 'Log issue',
  description: 'Log an issue encountered during execution and how it was resolved. Set requires_human_review when a person should check the resolution (the editor notifies them).',
  input: z.strictObject({
    task_id: taskIdInput,
    type: z.enum(issueTypes).describe('Kind of issue'),
    description: z.string().min(1).max(10_000).describe('Description of the issue'),
    resolution: z.string().min(1).max(10_000).describe('How the issue was resolved/worked around'),
    requires_human_review: z.boolean().optional().describe('Does a human need to review this resolution?'),
  }),
  output: z.object({ task_id: z.string(), issue_id: z.number(), logged_at: z.string(), requires_human_review: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.tracking.logIssue(args),
});
