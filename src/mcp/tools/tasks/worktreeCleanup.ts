import { worktreeCleanupInput, worktreeCleanupOutput } from '../../../core/workers/workerContracts';
import { defineTool } from '../../toolDefinition';

export const worktreeCleanupTool = defineTool({
  name: 'worktree_cleanup',
  family: 'tasks',
  title: 'Clean up worktrees',
  description:
    "Remove a task's worktree (taskId), or apply retention to all: worktrees merged into HEAD or unused for olderThanDays. Keeps those with a running session or uncommitted changes unless force. Reports the disk freed.",
  input: worktreeCleanupInput,
  output: worktreeCleanupOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.worktreeCleanup.run(args),
});
