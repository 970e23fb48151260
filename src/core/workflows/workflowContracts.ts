import { z } from 'zod';
import { idempotencyKeyInput, idempotencyOutputWithKey } from '../contracts/callOptions';

/** start_workflow (the tracking contract: snake_case fields). */
export const startWorkflowInput = z.strictObject({
  name: z.string().trim().min(1).max(500).describe("Short workflow name (e.g., 'Auth system refactor')"),
  description: z.string().max(20_000).optional().describe('Detailed description of the workflow goal'),
  plan: z
    .array(z.strictObject({ step: z.string().min(1).max(200), goal: z.string().min(1).max(2000) }))
    .max(200)
    .optional()
    .describe('Optional implementation plan as steps'),
  ...idempotencyKeyInput,
});

export const startWorkflowOutput = z.object({
  workflow_id: z.string().describe('ID to pass to start_task'),
  created_at: z.string(),
  ...idempotencyOutputWithKey,
});

export type StartWorkflowInput = z.infer<typeof startWorkflowInput>;
export type StartWorkflowResult = z.infer<typeof startWorkflowOutput>;
