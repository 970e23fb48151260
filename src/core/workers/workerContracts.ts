import { z } from 'zod';
import { agentClients } from '../agents/agentModel';
import { taskRef } from '../contracts/refs';

/** Inputs of worker_command and worktree_cleanup (MCP and CLI). */

export const workerCommandInput = z.strictObject({
  taskId: taskRef,
  agent: z.string().min(1).max(100).optional().describe("Agent name (default: the task's AI assignee, else 'coder')"),
  client: z.enum(agentClients).optional().describe('AI client (default: from agent definition)'),
  auto: z.boolean().default(false).describe('Add auto-approval flags'),
  allowConcurrent: z.boolean().default(false).describe('Start even though this agent already has a running session on the task'),
});

export const worktreeCleanupInput = z.strictObject({
  taskId: taskRef.optional().describe("Remove this task's worktree; without it, apply the retention rule to every worktree"),
  olderThanDays: z.number().int().min(0).max(3650).default(14).describe('Retention: remove worktrees unused for this many days (merged ones go at once)'),
  force: z.boolean().default(false).describe('Also remove worktrees with uncommitted changes or a running session (their uncommitted work is lost)'),
  dryRun: z.boolean().default(false).describe('Only report what would be removed'),
});

export type WorkerCommandInput = z.infer<typeof workerCommandInput>;
export type WorktreeCleanupInput = z.infer<typeof worktreeCleanupInput>;
