import { z } from 'zod';
import { decisionCategories } from '../../../core/tasks/taskModel';
import { defineTool } from '../../toolDefinition';
import { taskIdInput } from './schemas';

export const logDecisionTool = defineTool({
  name: 'log_decision',
  family: 'tracking',
  title: 'Log decision',
  description: 'Log an important architectural decision (library choice, architecture, trade-off, workaround). Not for trivial choices. 0-3 per task.',
  input: z.strictObject({
    task_id: taskIdInput,
    category: z.enum(decisionCategories).describe('Kind of decision'),
    question: z.string().min(1).max(2000).describe("The decision question (e.g., 'Which auth library to use?')"),
    options_considered: z.array(z.string().min(1).max(500)).max(50).optional().describe("Options evaluated (e.g., ['NextAuth', 'Clerk', 'Custom'])"),
    chosen: z.string().min(1).max(2000).describe('Chosen option'),
    reasoning: z.string().min(1).max(5000).describe('Why this choice (1-2 sentences)'),
    trade_offs: z.string().max(5000).optional().describe('Accepted compromises (optional)'),
  }),
  output: z.object({ task_id: z.string(), decision_id: z.number(), logged_at: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.tracking.logDecision(args),
});
