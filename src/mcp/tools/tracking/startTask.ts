import { z } from 'zod';
import { defineTool } from '../../toolDefinition';

export const startTaskTool = defineTool({
  name: 'start_task',
  family: 'tracking',
  title: 'Start task',
  description:
    'Start a new task (or sub-task) and create a Git snapshot of the whole working state, so complete_task can report exactly which files this task changed. Call at the start of each task.',
  input: z.strictObject({
    task_id: z
      .union([z.string().max(100), z.number().int().positive()])
      .nullable()
      .optional()
      .describe('Start this existing open task (e.g. 5 from task_create) instead of creating a new one; name and goal replace its title and goal'),
    workflow_id: z.string().min(1).max(100).describe('Parent workflow ID (from start_workflow)'),
    parent_task_id: z.string().max(100).nullable().optional().describe('Parent task ID (null if top-level task)'),
    name: z.string().min(1).max(500).describe("Task name (e.g., 'Implement Stripe integration')"),
    goal: z.string().min(1).max(20_000).describe('Precise goal of this task'),
    areas: z
      .array(z.string().min(1).max(500))
      .max(100)
      .optional()
      .describe("Code areas this task will touch (e.g., ['auth', 'api']): a word matches a path segment or file name, a path matches by prefix, a glob by pattern"),
  }),
  output: z.object({
    task_id: z.string().describe('ID to pass to log_* and complete_task'),
    snapshot_id: z.string().describe('Snapshot commit (git) or manifest id (checksum)'),
    snapshot_type: z.enum(['git', 'checksum']),
    started_at: z.string(),
    workflow_id: z.string(),
    parent_task_id: z.string().nullable(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.tracking.startTask(args),
});
