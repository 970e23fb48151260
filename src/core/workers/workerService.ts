import type { LedgerEngine } from '../ports/store';
import type { PreparedWorktree, Worktrees } from '../ports/worktrees';
import type { Snapshot, WorkspaceTruth } from '../ports/workspaceTruth';
import type { Task } from '../tasks/taskModel';
import { parseId, taskKey } from '../ids';
import type { Clock } from '../time';
import { iso } from '../time';
import { appendEvent } from '../events/eventLog';
import { getTask } from '../tasks/taskRepo';
import type { AgentDefinition } from '../agents/agentModel';
import type { AgentRegistry } from '../agents/agentRegistry';
import type { MemoryBank } from '../memory/memoryBank';
import { endSessionRow, insertSession, runningSessions, setSessionBranch } from '../sessions/sessionRepo';
import { applySessionStart, requireNoRunningSession, requireSessionTask } from '../sessions/sessionTask';
import { pinSnapshot } from '../tasks/snapshotPin';
import type { StartGate } from '../tasks/startGate';
import { clientArgv, shellCommand } from './launchCommand';
import { workerPrompt } from './workerPrompt';
import { readWorkspaceSettings } from './workspaceSettings';
import { branchNameOf, recordWorktreeUse, worktreeFolder, worktreePathOf } from './worktreeRepo';
import type { WorkerCommandInput, WorkerCommandResult } from './workerContracts';
import { errorMessage } from '../errors';

export interface WorkerDeps {
  db: LedgerEngine;
  agents: AgentRegistry;
  memory: MemoryBank;
  worktrees: Worktrees;
  clock: Clock;
  workspace: string;
  /** The folder of this workspace's worktrees, when the user chose one outside `.agent-ledger/worktrees`. */
  worktreesDir?: string;
  /** What a task passes before a worker starts on it (core/tasks/startGate.ts). */
  startGate: StartGate;
  /** A session started on the task (scheduling's taskWorkStarted: its write scope and changed files become marks). Never throws. */
  onStarted?: (taskId: number, agentScope: readonly string[]) => Promise<void>;
}

/**
 * worker_command: prepares the task's worktree with the agent's scope, starts a session and
 * returns the command that launches the agent's client there. It never runs the command.
 */
export class WorkerService {
  constructor(private readonly d: WorkerDeps) {}

  /** `sessionGroupId`: the runner marks the session it prepares before claiming the run (runSessions.ts). */
  async command(input: WorkerCommandInput, options: { sessionGroupId?: string } = {}): Promise<WorkerCommandResult> {
    const { db } = this.d;
    const taskId = parseId('task', input.taskId);
    const task = await db.read((r) => requireSessionTask(r, taskId));
    const agent = await this.resolveAgent(input.agent, task);
    const client = input.client ?? agent.client;
    await db.read((r) => requireNoRunningSession(r, taskId, agent.name, input.allowConcurrent));
    const rel = worktreePathOf(taskId, this.d.workspace, this.d.worktreesDir);
    const startedAt = iso(this.d.clock.now());

    // The session is recorded first: its id names the branch of a new worktree.
    const { sessionId, shared } = await db.write(async (tx) => {
      await requireSessionTask(tx, taskId);
      await requireNoRunningSession(tx, taskId, agent.name, input.allowConcurrent);
      // In the write that records the session: two processes starting overlapping tasks start one.
      await this.d.startGate(tx, taskId, {
        force: input.force,
        allowOverlap: input.allowOverlap,
        checkConflicts: true,
        agentScope: agent.scope.write,
      });
      const shared = (await runningSessions(tx, taskId)).some((s) => s.worktree === rel);
      const sessionId = await insertSession(tx, {
        taskId,
        agent: agent.name,
        client,
        origin: 'worker_command',
        sessionGroupId: options.sessionGroupId ?? null,
        idempotencyKey: null,
        worktree: rel,
        scope: agent.scope,
        startedAt,
      });
      return { sessionId, shared };
    });

    let prepared: PreparedWorktree;
    let truth: WorkspaceTruth | undefined;
    let snapshot: Snapshot | null = null;
    try {
      // Another agent's session working there keeps its checkout: the scope is not changed under it.
      const scope = { read: agent.scope.read, exclude: agent.scope.exclude };
      prepared = await this.d.worktrees.prepare(
        worktreeFolder(this.d.workspace, rel),
        branchNameOf(taskId, sessionId),
        scope,
        { keepScope: shared, link: readWorkspaceSettings(this.d.workspace).link },
      );
      if (task.snapshot === null) {
        truth = await this.d.worktrees.truth(prepared.path);
        // A worktree just created holds exactly its base commit, which is then the exact start
        // snapshot: no need to read every file again (on 20,000 files that is most of the time).
        snapshot = prepared.created
          ? { type: 'git', id: prepared.base, head: prepared.base, takenAt: iso(this.d.clock.now()) }
          : await truth.snapshot(`${taskKey(taskId)}: ${task.title}`);
      }
    } catch (err) {
      await this.failSession(sessionId, taskId, startedAt, err);
      throw err;
    }

    const memory = await this.d.memory.preview();
    const current = (await db.read((r) => getTask(r, taskId))) ?? task;
    const prompt = workerPrompt({
      agent,
      task: current,
      branch: prepared.branch,
      worktree: rel,
      memoryContext: memory.context,
      memoryFolder: this.d.memory.folder,
      baseBranch: prepared.baseBranch,
    });
    const argv = clientArgv(client, { model: agent.model, auto: input.auto, prompt });

    const tookSnapshot = await db.write(async (tx) => {
      const latest = (await getTask(tx, taskId))!;
      await setSessionBranch(tx, sessionId, prepared.branch);
      await recordWorktreeUse(tx, {
        taskId,
        path: rel,
        branch: prepared.branch,
        baseCommit: prepared.base,
        sparse: prepared.sparse,
        lastUsedAt: startedAt,
        created: prepared.created,
      });
      const took = await applySessionStart(tx, latest, { sessionId, agent, snapshot, worktree: rel, now: startedAt });
      if (prepared.created)
        await appendEvent(tx, {
          ts: startedAt,
          kind: 'worktree.created',
          taskId,
          entity: 'worktree',
          entityId: rel,
          payload: {
            branch: prepared.branch,
            sparse: prepared.sparse,
            ...(prepared.brought ? { copied: prepared.brought.copied, linked: prepared.brought.linked } : {}),
            ...(prepared.baseBranch !== undefined ? { baseBranch: prepared.baseBranch } : {}),
          },
        });
      await appendEvent(tx, {
        ts: startedAt,
        kind: 'session.started',
        workflowId: latest.workflowId,
        taskId,
        entity: 'session',
        entityId: String(sessionId),
        payload: { agent: agent.name, client, worktree: rel, branch: prepared.branch, reused: !prepared.created },
      });
      return took;
    });
    if (tookSnapshot && truth && snapshot) await pinSnapshot(truth, snapshot, taskKey(taskId));
    await this.d.onStarted?.(taskId, agent.scope.write);

    return {
      command: shellCommand(prepared.cwd, argv),
      client,
      worktree: rel,
      sessionId,
      agent: agent.name,
      task: { id: taskId, title: current.title, branch: prepared.branch },
      cwd: prepared.cwd,
      argv,
      reused: !prepared.created,
      startedAt,
    };
  }

  /** The task-management contract: the named agent, else the task's AI assignee when it names an agent, else `coder`. */
  private async resolveAgent(name: string | undefined, task: Task): Promise<AgentDefinition> {
    if (name !== undefined) return this.d.agents.get(name);
    if (task.assignee && task.assigneeType !== 'human') {
      const assigned = (await this.d.agents.list()).agents.find((a) => a.name === task.assignee);
      if (assigned) return assigned;
    }
    return this.d.agents.get('coder');
  }

  /** The worktree could not be prepared: the session ends failed, with the reason, so it does not block the next try. */
  private async failSession(sessionId: number, taskId: number, startedAt: string, err: unknown): Promise<void> {
    const now = iso(this.d.clock.now());
    const message = errorMessage(err);
    await this.d.db.write(async (tx) => {
      await endSessionRow(tx, sessionId, {
        status: 'failed',
        exitCode: null,
        signal: null,
        dodResult: null,
        artifacts: [],
        error: { type: 'unknown', message: `worktree not prepared: ${message}` },
        endedAt: now,
        durationSeconds: 0,
      });
      await appendEvent(tx, {
        ts: now,
        kind: 'session.ended',
        taskId,
        entity: 'session',
        entityId: String(sessionId),
        payload: { status: 'failed', startedAt, error: message },
      });
    });
  }
}
