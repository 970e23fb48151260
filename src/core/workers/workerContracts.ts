import { z } from 'zod';
import { agentClients } from '../agents/agentModel';
import { agentName, taskRef } from '../contracts/common';
import { idempotencyKeyInput, idempotencyOutputWithKey } from '../contracts/callOptions';

/** worker_command and worktree_cleanup (the task-management contract): inputs and results. */

export const workerCommandInput = z.strictObject({
  taskId: taskRef,
  agent: agentName.optional().describe("Agent name (default: the task's AI assignee, else 'coder')"),
  client: z.enum(agentClients).optional().describe('AI client (default: from agent definition)'),
  auto: z.boolean().default(false).describe('Add auto-approval flags'),
  allowConcurrent: z
    .boolean()
    .default(false)
    .describe('Start even though this agent already has a running session on the task'),
  force: z
    .boolean()
    .default(false)
    .describe(
      'Start even though tasks this one depends on (its workflow plan graph) are not done; without it the start is refused naming them',
    ),
  allowOverlap: z
    .boolean()
    .default(false)
    .describe(
      "Start even though the task's write scope may overlap what a running task writes; without it the start is refused naming the running tasks (conflict-aware scheduling)",
    ),
  ...idempotencyKeyInput,
});

export const worktreeCleanupInput = z.strictObject({
  taskId: taskRef
    .optional()
    .describe("Remove this task's worktree; without it, apply the retention rule to every worktree"),
  olderThanDays: z
    .number()
    .int()
    .min(0)
    .max(3650)
    .default(14)
    .describe('Retention: remove worktrees unused for this many days (merged ones go at once)'),
  force: z
    .boolean()
    .default(false)
    .describe('Also remove worktrees with uncommitted changes or a running session (their uncommitted work is lost)'),
  dryRun: z.boolean().default(false).describe('Only report what would be removed'),
});

/** worker_command's answer: the task-management contract's fields, plus what lets an orchestrator spawn without a shell. */
export const workerCommandOutput = z.object({
  command: z.string().describe('cd <worktree> && <client> … — every argument quoted for a POSIX shell'),
  client: z.enum(agentClients),
  worktree: z.string().describe('Workspace-relative worktree'),
  sessionId: z.number(),
  agent: z.string(),
  task: z.object({ id: z.number(), title: z.string(), branch: z.string() }),
  cwd: z.string().describe('Absolute folder the command starts in'),
  argv: z.array(z.string()).describe('The client command as arguments, to spawn without a shell'),
  reused: z.boolean().describe('True when the existing worktree was used again'),
  startedAt: z.string(),
  ...idempotencyOutputWithKey,
});

export const worktreeCleanupOutput = z.object({
  removed: z.array(
    z.object({
      taskId: z.number(),
      worktree: z.string(),
      branch: z.string(),
      reason: z.string().describe('Why it went: "requested", "merged", "unused for N days" or "already gone"'),
      freedBytes: z.number(),
      branchDeleted: z.boolean(),
    }),
  ),
  skipped: z.array(z.object({ taskId: z.number(), worktree: z.string(), reason: z.string() })),
  freedBytes: z.number().describe('Disk freed in all (would be freed, with dryRun)'),
  dryRun: z.boolean(),
});

export type WorkerCommandInput = z.infer<typeof workerCommandInput>;
export type WorktreeCleanupInput = z.infer<typeof worktreeCleanupInput>;
export type WorkerCommandResult = z.infer<typeof workerCommandOutput>;
export type CleanupResult = z.infer<typeof worktreeCleanupOutput>;
export type RemovedWorktree = CleanupResult['removed'][number];
export type KeptWorktree = CleanupResult['skipped'][number];
