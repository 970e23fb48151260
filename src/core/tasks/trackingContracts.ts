import { z } from 'zod';
import { taskRef, workflowRef } from '../contracts/common';
import { idempotencyKeyInput, idempotencyOutputWithKey } from '../contracts/callOptions';
import { completionStatuses, decisionCategories, issueTypes, testsStatuses } from './taskModel';

/**
 * The tracking tools: start_task, log_decision, log_issue, log_milestone and complete_task
 * (the tracking contract: snake_case fields and results). Required text is trimmed and must not be empty.
 */

const text = (max: number) => z.string().trim().min(1).max(max);
const trackedTask = taskRef.describe('Task ID returned by start_task (e.g. "task-12"; 12 works too)');

export const startTaskInput = z.strictObject({
  task_id: taskRef
    .nullable()
    .optional()
    .describe(
      'Start this existing open task (e.g. 5 from task_create) instead of creating a new one; name and goal replace its title and goal',
    ),
  workflow_id: workflowRef.describe('Parent workflow ID (from start_workflow)'),
  parent_task_id: taskRef.nullable().optional().describe('Parent task ID (null if top-level task)'),
  name: text(500).describe("Task name (e.g., 'Implement Stripe integration')"),
  goal: text(20_000).describe('Precise goal of this task'),
  areas: z
    .array(z.string().min(1).max(500))
    .max(100)
    .optional()
    .describe(
      "Code areas this task will touch (e.g., ['auth', 'api']): a word matches a path segment or file name, a path matches by prefix, a glob by pattern",
    ),
  force: z
    .boolean()
    .optional()
    .describe(
      'With task_id: start it even though tasks it depends on (its workflow plan graph) are not done yet; without force that start is refused naming them',
    ),
  ...idempotencyKeyInput,
});

export const startTaskOutput = z.object({
  task_id: z.string().describe('ID to pass to log_* and complete_task'),
  snapshot_id: z.string().describe('Snapshot commit (git) or manifest id (checksum)'),
  snapshot_type: z.enum(['git', 'checksum']),
  started_at: z.string(),
  workflow_id: z.string(),
  parent_task_id: z.string().nullable(),
  ...idempotencyOutputWithKey,
});

export const logDecisionInput = z.strictObject({
  task_id: trackedTask,
  category: z.enum(decisionCategories).describe('Kind of decision'),
  question: text(2000).describe("The decision question (e.g., 'Which auth library to use?')"),
  options_considered: z
    .array(z.string().min(1).max(500))
    .max(50)
    .optional()
    .describe("Options evaluated (e.g., ['NextAuth', 'Clerk', 'Custom'])"),
  chosen: text(2000).describe('Chosen option'),
  reasoning: text(5000).describe('Why this choice (1-2 sentences)'),
  trade_offs: z.string().max(5000).optional().describe('Accepted compromises (optional)'),
});

export const logDecisionOutput = z.object({ task_id: z.string(), decision_id: z.number(), logged_at: z.string() });

export const logIssueInput = z.strictObject({
  task_id: trackedTask,
  type: z.enum(issueTypes).describe('Kind of issue'),
  description: text(10_000).describe('Description of the issue'),
  resolution: text(10_000).describe('How the issue was resolved/worked around'),
  requires_human_review: z.boolean().optional().describe('Does a human need to review this resolution?'),
});

export const logIssueOutput = z.object({
  task_id: z.string(),
  issue_id: z.number(),
  logged_at: z.string(),
  requires_human_review: z.boolean(),
});

export const logMilestoneInput = z.strictObject({
  task_id: trackedTask,
  message: text(1000).describe("Short message (e.g., 'Running tests...')"),
  progress: z.number().min(0).max(100).optional().describe('Estimated progress (0-100)'),
  metadata: z.record(z.string(), z.unknown()).optional().describe('Optional additional data'),
});

export const logMilestoneOutput = z.object({
  task_id: z.string(),
  milestone_id: z.number(),
  progress: z.number().nullable(),
  logged_at: z.string(),
});

export const outcomeInput = z
  .looseObject({
    summary: text(20_000).describe('Summary of what was accomplished (2-4 sentences)'),
    achievements: z
      .array(z.string().max(2000))
      .max(100)
      .optional()
      .describe('Concrete achievements (empty array if none)'),
    limitations: z
      .array(z.string().max(2000))
      .max(100)
      .optional()
      .describe('Limitations/compromises (empty array if none)'),
    manual_review_needed: z.boolean().optional().describe('Does a human need to review before continuing?'),
    manual_review_reason: z.string().max(5000).optional().describe('Why manual review is needed'),
    next_steps: z.array(z.string().max(2000)).max(100).optional().describe('Suggested next steps (optional)'),
  })
  .describe('What the task achieved');

export const completeTaskInput = z.strictObject({
  task_id: trackedTask,
  status: z.enum(completionStatuses).describe('How the task ended'),
  outcome: outcomeInput,
  metadata: z
    .looseObject({
      packages_added: z.array(z.string()).optional(),
      packages_removed: z.array(z.string()).optional(),
      commands_executed: z.array(z.string()).optional(),
      tests_status: z.enum(testsStatuses).optional(),
    })
    .optional()
    .describe('Packages, commands and test status of the task'),
});

export const fileChangesOutput = z.object({
  added: z
    .array(z.string())
    .describe(
      'Files that did not exist at start_task (paths relative to the workspace folder; files inside a submodule under its path)',
    ),
  modified: z.array(z.string()).describe('Files whose content or mode changed'),
  deleted: z.array(z.string()).describe('Files that existed at start_task and are gone'),
  renamed: z.array(z.object({ from: z.string(), to: z.string() })).describe('Files moved (content mostly kept)'),
});

export const verificationOutput = z.object({
  scope_match: z.boolean().describe('True when every changed file lies in the areas declared at start_task'),
  unexpected_files: z.array(z.string()).describe('Changed files outside the declared areas'),
  warnings: z.array(z.string()),
});

export const commitOutput = z.object({ sha: z.string(), subject: z.string(), author: z.string(), date: z.string() });

export const repositoryRootOutput = z
  .string()
  .nullable()
  .describe(
    "The Git repository's top level the changes were measured in (a worker's worktree for a task run there); null outside Git",
  );

export const workspacePathOutput = z
  .string()
  .describe(
    'The workspace folder inside repositoryRoot that every path is relative to ("" when the workspace is the top level, e.g. "packages/app" in a monorepo)',
  );

export const completeTaskOutput = z.object({
  task_id: z.string(),
  status: z.enum(completionStatuses),
  duration_seconds: z.number(),
  files_changed: fileChangesOutput,
  verification: verificationOutput,
  commits: z.array(commitOutput).describe('Commits made during the task, oldest first'),
  counts: z.object({ decisions: z.number(), issues: z.number(), milestones: z.number() }),
  snapshot_id: z.string(),
  end_snapshot_id: z.string(),
  completed_at: z.string(),
  repositoryRoot: repositoryRootOutput,
  workspacePath: workspacePathOutput,
});

export type StartTaskInput = z.infer<typeof startTaskInput>;
export type StartTaskResult = z.infer<typeof startTaskOutput>;
export type LogDecisionInput = z.infer<typeof logDecisionInput>;
export type LogDecisionResult = z.infer<typeof logDecisionOutput>;
export type LogIssueInput = z.infer<typeof logIssueInput>;
export type LogIssueResult = z.infer<typeof logIssueOutput>;
export type LogMilestoneInput = z.infer<typeof logMilestoneInput>;
export type LogMilestoneResult = z.infer<typeof logMilestoneOutput>;
export type CompleteTaskInput = z.infer<typeof completeTaskInput>;
export type CompleteTaskResult = z.infer<typeof completeTaskOutput>;
