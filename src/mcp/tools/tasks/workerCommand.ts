import { z } from 'zod';
import { agentClients } from '../../../core/agents/agentModel';
import { workerCommandInput } from '../../../core/workers/workerContracts';
import { defineTool } from '../../toolDefinition';

export const workerCommandTool = defineTool({
  name: 'worker_command',
  family: 'tasks',
  title: 'Worker command',
  description:
    "Generate worker launch command for a task: creates (or reuses) the task's Git worktree .agent-ledger/worktrees/task-<id> on branch task-<id>-s<sessionId> with the agent's scope, starts a session, and returns a shell-quoted command (and argv) embedding the task, the agent's prompt and the Memory Bank. Run it yourself; end the session with session_end.",
  input: workerCommandInput,
  output: z.object({
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
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.workers.command(args),
});
