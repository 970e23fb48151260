import { z } from 'zod';
import { defineTool } from '../../toolDefinition';
import { taskIdInput } from './schemas';

export const logMilestoneTool = defineTool({
  name: 'log_milestone',
  family: 'tracking',
  title: 'Log milestone',
  description: "Log a milestone for real-time UI updates (short message, optional progress). Light and cheap; at most ~5 per task.",
  input: z.strictObject({
    task_id: taskIdInput,
    message: z.string().min(1).max(1000).describe("Short message (e.g., 'Running tests...')"),
    progress: z.number().min(0).max(100).optional().describe('Estimated progress (0-100)'),
    metadata: z.record(z.string(), z.unknown()).optional().describe('Optional additional data'),
  }),
  output: z.object({ task_id: z.string(), milestone_id: z.number(), progress: z.number().nullable(), logged_at: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.tracking.logMilestone(args),
});
