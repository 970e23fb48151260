import { workerCommandInput, workerCommandOutput } from '../../../core/workers/workerContracts';
import { defineTool } from '../../toolDefinition';
import { idempotentCreate } from '../idempotentCreate';

export const workerCommandTool = defineTool({
  name: 'worker_command',
  family: 'tasks',
  idempotent: true,
  title: 'Worker command',
  description:
    "Generate worker launch command for a task: creates (or reuses) the task's Git worktree .agent-ledger/worktrees/task-<id> on branch task-<id>-s<sessionId> with the agent's scope, starts a session, and returns a shell-quoted command (and argv) embedding the task, the agent's prompt and the Memory Bank. Run it yourself; end the session with session_end.",
  input: workerCommandInput,
  output: workerCommandOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, ctx) => idempotentCreate('worker_command', args, ctx, (input) => ctx.services.workers.command(input)),
});
