import { z } from 'zod';
import { worktreeCleanupInput } from '../../../core/workers/workerContracts';
import { defineTool } from '../../toolDefinition';

export const worktreeCleanupTool = defineTool({
  name: 'worktree_cleanup',
  family: 'tasks',
  title: 'Clean up worktrees',
  description:
    "Remove a task's worktree (taskId), or apply retention to all: worktrees merged into HEAD or unused for olderThanDays. Keeps those with a running session or uncommitted changes unless force. Reports the disk freed.",
  input: worktreeCleanupInput,
  output: z.object({
    removed: z.array(z.object({ taskId: z.number(), worktree: z.string(), branch: z.string(), reason: z.string(), freedBytes: z.number(), branchDeleted: z.boolean() })),
    skipped: z.array(z.object({ taskId: z.number(), worktree: z.string(), reason: z.string() })),
    freedBytes: z.number().describe('Disk freed in all (would be freed, with dryRun)'),
    dryRun: z.boolean(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.worktreeCleanup.run(args),
});
