import type { AsyncSqlReader, AsyncSqlWriter, LedgerEngine } from '../../ports/store';
import { untilSomething } from '../../waitFor';
import { LedgerError } from '../../errors';
import { parseId, taskKey } from '../../ids';
import type { AgentDirectory } from './projectRows';
import { agentDefinitionOrNull, appendPmEvent, projectRowOf } from './projectRows';
import { folderFacts, workFolder } from './workFolder';
import type { FolderFacts, WorkspaceIn } from './workFolder';
import type { PmTaskRow } from './projectTaskService';
import { pmTaskRow, setTaskStatus } from './projectTaskService';
import { nextAssignedTask } from './nextTask';
import type { ScopeGate } from './nextTask';
import type { TaskLifecycle } from '../../tasks/taskLifecycle';
import { insertContext, latestContext, latestHandoffFor } from './handoffService';
import { aiTypeOfRun } from './aiType';
import type { ScryptParams } from './passkey';
import type { AgentSessionRow } from './agentSessionRows';
import { activeSession, activeSessionOf, endSession, touchSession } from './agentSessionRows';
import { closeExecution, executionRow, openExecution } from './executionLogs';
import { DeprecatedAgentCalls } from './deprecatedAgentCalls';
import { AgentLogin } from './agentLogin';
import type { AuthenticateResult } from './agentLogin';
import type { MyTask, ReportResult } from './runtimeContracts';
import type { LoginLimits } from './loginThrottle';

/** Sessions end after this much inactivity unless configured otherwise (the contract's expires_in: one hour). */
export const DEFAULT_SESSION_TTL_SECONDS = 3600;

export interface RuntimeOptions {
  sessionTtlSeconds?: number;
  /** Lower scrypt cost for tests only; stored with each hash, so verification follows the row. */
  scryptParams?: ScryptParams;
  /** How wrong passkeys are throttled (AGENT_LEDGER_LIMITS; the defaults otherwise). */
  loginLimits?: LoginLimits;
  /**
   * Git tracking of a run (core/tasks/runTracking.ts): get_my_task takes the task's start
   * snapshot when it has none, report_completed records the files it changed since.
   */
  tracking?: { beginRun(taskId: number): Promise<void>; endRun(taskId: number): Promise<void> };
  /** Told when report_completed ends a task (core/tasks/taskLifecycle.ts). */
  lifecycle?: TaskLifecycle;
  /** The workspace's folder inside a task's worktree (workFolder.ts): where get_my_task says to work. */
  workspaceIn?: WorkspaceIn;
}

/** A task get_my_task claimed, and the facts that name its folder. */
type Claimed = { task: Omit<MyTask, 'working_directory'>; folder: FolderFacts };

/**
 * The runner's and agent instances' side of the agent PM, over the asynchronous store port (so
 * it runs unchanged on PostgreSQL). The runner calls `shouldStart` / `ProjectService.activeWithAgents`
 * in-process or as tools; agent instances authenticate with a passkey and carry a session token.
 * Instances are managed per (agent, project): the same agent may run in two projects at once,
 * never twice in one.
 */
export class AgentRuntimeService {
  readonly sessionTtlSeconds: number;
  /** get_pending_tasks, report_execution_start, report_execution_complete: still answered, deprecated. */
  readonly deprecated: DeprecatedAgentCalls;
  private readonly login: AgentLogin;

  constructor(
    private readonly engine: LedgerEngine,
    private readonly workspace: string,
    private readonly agents: AgentDirectory,
    private readonly now: () => Date = () => new Date(),
    private readonly options: RuntimeOptions = {},
  ) {
    this.sessionTtlSeconds = options.sessionTtlSeconds ?? DEFAULT_SESSION_TTL_SECONDS;
    this.deprecated = new DeprecatedAgentCalls(engine, workspace, now, this.sessionTtlSeconds);
    this.login = new AgentLogin(engine, agents, now, this.sessionTtlSeconds, options.scryptParams, options.loginLimits);
  }

  /**
   * The contract's four rules, in order: (1) the agent or the project does not exist → false;
   * (2) an active session of this (agent, project) → false; (3) an in_progress task of this
   * project assigned to this agent → true with the agent's ai_type; (4) otherwise false.
   */
  async shouldStart(
    agentId: string,
    projectRef: string | number,
  ): Promise<{ should_start: boolean; ai_type?: 'claude' | 'codex' | 'gemini' }> {
    const agent = agentDefinitionOrNull(this.agents, agentId);
    if (!agent) return { should_start: false };
    const nowIso = this.now().toISOString();
    return this.engine.read(async (db) => {
      const project = await projectRowOf(db, projectRef).catch((err: unknown) => {
        if (LedgerError.is(err, 'NotFound')) return null;
        throw err;
      });
      if (!project) return { should_start: false };
      if (await activeSessionOf(db, agentId, project.id, nowIso)) return { should_start: false };
      const task = await db.get<{ id: number; run_client: string | null }>(
        "SELECT id, run_client FROM tasks WHERE project_id = ? AND assignee = ? AND status = 'in_progress' AND held_at IS NULL ORDER BY id LIMIT 1",
        [project.id, agentId],
      );
      return task
        ? { should_start: true, ai_type: aiTypeOfRun(agent.client, task.run_client) }
        : { should_start: false };
    });
  }

  /** Sets (or replaces) an agent's passkey; only its scrypt hash, salt and parameters are stored. */
  setPasskey(agentId: string, passkey: string): Promise<void> {
    return this.login.setPasskey(agentId, passkey);
  }

  /** Logs an instance in with its passkey (agentLogin.ts); `source`: the connection it comes from. */
  authenticate(
    agentId: string,
    passkey: string,
    projectRef: string | number,
    source?: string,
  ): Promise<AuthenticateResult> {
    return this.login.authenticate(agentId, passkey, projectRef, source);
  }

  /** Logs in the instance a runner launched, with its single-use launch ticket (agentLogin.ts). */
  authenticateWithTicket(
    agentId: string,
    ticket: string,
    projectRef: string | number,
    sessionToken?: string,
  ): Promise<AuthenticateResult> {
    return this.login.authenticateWithTicket(agentId, ticket, projectRef, sessionToken);
  }

  /** Ends the session; a run it opened and never reported is closed as an error. */
  async logout(token: string): Promise<void> {
    const now = this.now();
    await this.engine.write(async (tx) => {
      const session = await activeSession(tx, token, now.toISOString());
      await this.closeOpenRun(tx, session, now, {
        status: 'error',
        error: 'the session ended (logout) without report_completed',
      });
      await endSession(tx, session.id, now.toISOString(), 'logout');
      await appendPmEvent(tx, {
        ts: now.toISOString(),
        kind: 'agent.session_ended',
        entity: 'agent',
        entityId: session.agent,
        payload: { session: session.id, reason: 'logout' },
      });
    });
  }

  /**
   * The session's task: the one it already has while still in progress, else the oldest
   * in_progress task of its project assigned to its agent (its run is recorded then: an
   * execution log opens). With `waitMs`, waits for one to be assigned, holding no lock.
   */
  async myTask(
    token: string,
    waitMs = 0,
    signal?: AbortSignal,
  ): Promise<{ has_task: boolean; task?: MyTask; instruction: string }> {
    const claim = (): Promise<Claimed | null> => this.engine.write((tx) => this.claimTask(tx, token));
    // Claimed at once when there is a task; else wait for one (a read each time, a write only to claim it).
    const found =
      (await claim()) ??
      (await untilSomething(
        this.engine,
        Date.now,
        waitMs,
        async () => {
          const session = await this.engine.read((db) => activeSession(db, token, this.now().toISOString()));
          const candidate = await this.engine.read((db) => this.candidateTask(db, session));
          return candidate ? claim() : null;
        },
        { signal },
      ));
    if (!found) return { has_task: false, instruction: await this.noTaskInstruction(token) };
    // Before the agent touches a file: the start snapshot its changes are measured against.
    await this.options.tracking?.beginRun(parseId('task', found.task.task_id));
    const task = {
      ...found.task,
      working_directory: await workFolder(this.workspace, found.folder, this.options.workspaceIn),
    };
    return {
      has_task: true,
      task,
      instruction: `Work on this task in ${task.working_directory} (its working_directory${found.folder.worktree !== null ? ', in the task’s own Git worktree' : ''}): edit, test and commit there; save_context as you go, and call report_completed when you are done.`,
    };
  }

  /** The no-task answer, naming the dependencies an assigned task still waits for. */
  private async noTaskInstruction(token: string): Promise<string> {
    const next = await this.engine.read(async (db) => {
      const session = await activeSession(db, token, this.now().toISOString());
      return nextAssignedTask(db, Number(session.project_id), session.agent, this.scopeGate(session.agent));
    });
    if (next.held?.reason === 'conflict') {
      return `Your task ${taskKey(next.held.taskId)} waits: it would write where a running task writes (${next.held.detail.slice(next.held.detail.indexOf(': ') + 2)}); call get_my_task again with wait_ms to get it once ${next.held.blockedBy.join(', ')} ends, or logout to end the session.`;
    }
    if (next.held)
      return `Your task ${taskKey(next.held.taskId)} waits for ${next.held.blockedBy.join(', ')} to be done; call get_my_task again with wait_ms, or logout to end the session.`;
    return 'No task is assigned to you right now. Call logout to end the session.';
  }

  async reportCompleted(
    token: string,
    result: ReportResult,
    summary?: string,
    nextSteps?: string,
  ): Promise<{ task_id: string | null; status: string | null; instruction: string }> {
    const now = this.now();
    const ts = now.toISOString();
    let moved: { id: number; from: PmTaskRow['status']; to: PmTaskRow['status'] } | undefined;
    const reported = await this.engine.write(async (tx) => {
      moved = undefined;
      const session = await activeSession(tx, token, ts);
      const task =
        session.task_id !== null ? await pmTaskRow(tx, session.task_id) : await this.candidateTask(tx, session);
      let status: string | null = null;
      if (task) {
        const target = result === 'success' ? 'done' : result === 'failed' ? 'failed' : 'open';
        // A task this agent handed over to another stays with the other agent: only the run ends.
        if (task.assignee === session.agent) {
          await setTaskStatus(tx, task, target, ts, session.agent);
          moved = { id: task.id, from: task.status, to: target };
        }
        status = task.assignee === session.agent ? target : task.status;
        if (summary !== undefined || nextSteps !== undefined) {
          await insertContext(
            tx,
            task,
            session.agent,
            {
              progress: summary ?? null,
              blockers: result === 'blocked' ? (summary ?? null) : null,
              next_steps: nextSteps ?? null,
            },
            ts,
          );
        }
      }
      await this.closeOpenRun(tx, session, now, {
        status: result === 'success' ? 'completed' : 'failed',
        result,
        summary: summary ?? null,
      });
      await endSession(tx, session.id, ts, 'completed');
      await appendPmEvent(tx, {
        ts,
        kind: 'agent.session_ended',
        taskId: task?.id ?? null,
        entity: 'agent',
        entityId: session.agent,
        payload: { session: session.id, reason: 'completed', result },
      });
      return {
        task_id: task ? taskKey(task.id) : null,
        status,
        instruction: 'The task is reported and the session has ended. Exit now.',
      };
    });
    // The run's exact Git changes, as complete_task records them. The report itself is committed:
    // a Git failure here is said on stderr, never turned into a failed report.
    if (reported.task_id !== null)
      await this.options.tracking
        ?.endRun(parseId('task', reported.task_id))
        .catch((err: unknown) =>
          console.error('[agent-ledger] could not record the changes of', reported.task_id, err),
        );
    if (moved) await this.options.lifecycle?.changed(moved.id, moved.from, moved.to);
    return reported;
  }

  /**
   * The oldest in_progress task of the session's project assigned to its agent whose dependencies
   * are done and whose write scope overlaps no running task's (nextTask.ts: worker_command's rule).
   */
  private async candidateTask(db: AsyncSqlReader, session: AgentSessionRow): Promise<PmTaskRow | null> {
    return (await nextAssignedTask(db, Number(session.project_id), session.agent, this.scopeGate(session.agent))).task;
  }

  /** The scope gate with the agent's write scope (for a task that declares none), as worker_command checks it. */
  private scopeGate(agent: string): ScopeGate {
    return { agentScope: agentDefinitionOrNull(this.agents, agent)?.scope.write ?? [] };
  }

  /** In one write: touch the session, keep or pick its task, open the run when the task is new to it. */
  private async claimTask(tx: AsyncSqlWriter, token: string): Promise<Claimed | null> {
    const now = this.now();
    const ts = now.toISOString();
    const session = await touchSession(tx, token, now, this.sessionTtlSeconds);
    let task: PmTaskRow | null = null;
    if (session.task_id !== null) {
      const current = await pmTaskRow(tx, session.task_id);
      if (current.status === 'in_progress' && current.assignee === session.agent) task = current;
    }
    task ??= await this.candidateTask(tx, session);
    if (!task) return null;
    let executionId: number | null = session.execution_id === null ? null : Number(session.execution_id);
    if (
      task.id !== session.task_id &&
      session.task_id === null &&
      session.execution_id !== null &&
      (await this.unboundRun(tx, session.execution_id, task.id))
    ) {
      // The run a runner opened for this session gets its task.
      await tx.run('UPDATE execution_logs SET task_id = ? WHERE id = ?', [task.id, session.execution_id]);
      await tx.run('UPDATE agent_sessions SET task_id = ? WHERE id = ?', [task.id, session.id]);
    } else if (task.id !== session.task_id) {
      await this.closeOpenRun(tx, session, now, { status: 'error', error: 'the session moved on to another task' });
      executionId = await openExecution(tx, {
        taskId: task.id,
        workflowId: task.workflow_id,
        agent: session.agent,
        projectId: session.project_id,
        sessionId: session.id,
        ts,
      });
      await tx.run('UPDATE agent_sessions SET task_id = ?, execution_id = ? WHERE id = ?', [
        task.id,
        executionId,
        session.id,
      ]);
    }
    return {
      task: {
        task_id: taskKey(task.id),
        title: task.title,
        description: task.description ?? task.goal,
        context: await latestContext(tx, task.id),
        handoff: await latestHandoffFor(tx, task.id, session.agent),
      },
      folder: await folderFacts(tx, task.id, executionId),
    };
  }

  /** Whether a run is still open and has no task yet, or already this one. */
  private async unboundRun(db: AsyncSqlReader, executionId: number, taskId: number): Promise<boolean> {
    const run = await db.get<{ task_id: number | null; status: string }>(
      'SELECT task_id, status FROM execution_logs WHERE id = ?',
      [executionId],
    );
    return run?.status === 'running' && (run.task_id === null || Number(run.task_id) === taskId);
  }

  private async closeOpenRun(
    tx: AsyncSqlWriter,
    session: AgentSessionRow,
    now: Date,
    end: Parameters<typeof closeExecution>[2],
  ): Promise<void> {
    if (session.execution_id === null) return;
    const run = await executionRow(tx, session.execution_id);
    if (run.status === 'running') await closeExecution(tx, run.id, end, now);
  }
}
