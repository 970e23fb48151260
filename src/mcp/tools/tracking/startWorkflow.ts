import { z } from 'zod';
import { defineTool } from '../../toolDefinition';

export const startWorkflowTool = defineTool({
  name: 'start_workflow',
  family: 'tracking',
  title: 'Start workflow',
  description: 'Initialize a new workflow tracking session (a container of tasks). Call once per piece of work; pass the returned workflow_id to start_task.',
  input: z.strictObject({
    name: z.string().min(1).max(500).describe("Short workflow name (e.g., 'Auth system refactor')"),
    description: z.string().max(20_000).optional().describe('Detailed description of the workflow goal'),
    plan: z
      .array(z.strictObject({ step: z.string().min(1).max(200), goal: z.string().min(1).max(2000) }))
      .max(200)
      .optional()
      .describe('Optional implementation plan as steps'),
  }),
  output: z.object({
    workflow_id: z.string().describe('ID to pass to start_task'),
    created_at: z.string(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.tracking.startWorkflow(args),
});
