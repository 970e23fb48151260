/**
 * The runner's questions answered by the ledger itself, over the asynchronous store port (so a
 * runner on any machine works against the embedded store or the team's PostgreSQL alike).
 *
 * An (agent, project) instance (`agent_instances`) is held by one run at a time: claiming it
 * opens the run's execution log in the same transaction, so two runners racing for a pair get
 * one launch. A run whose runner stops sending heartbeats is taken over after `staleAfterMs`.
 */
import { randomBytes } from 'node:crypto';
import type { AsyncSqlWriter, LedgerEngine } from '../../ports';
import { parseId, taskKey } from '../../ids';
import { executionKey, parsePmId, pmIdOf, projectKey } from '../../projects/pmIds';
import { aiTypeOf } from '../aiType';
import type { AgentDirectory } from '../../projects/projectRows';
import { appendPmEvent, projectRowOf } from '../../projects/projectRows';
import type { ProjectService } from '../../projects/projectService';
import type { AgentRuntimeService } from '../agentRuntimeService';
import { closeExecution, openExecution } from '../executionLogs';
import { hashSessionToken } from '../passkey';
import { launchProfileOf } from './launchProfile';
import { endReason } from './runEnds';
import type { ActiveProject, LaunchHold, LaunchTarget, RunEnd, RunStart, RunnerLedger, StartDecision } from './runnerPort';
import { LedgerError } from '../../errors';
import { nextAssignedTask } from '../nextTask';
import { endRunSessions, endUnclaimedSession, runEndReason, tieRunSession, endUntiedSessions } from './runSessions';

export interface LedgerForRunnerOptions {
  engine: LedgerEngine;
  projects: ProjectService;
  runtime: AgentRuntimeService;
  agents: AgentDirectory;
  /** Names this runner: the machine and its log folder. A restarted runner with the same id picks up its runs. */
  runnerId: string;
  /**
   * The task's own worktree (worker_command's) and the session that prepared it (ended with the
   * run: runSessions.ts); undefined to run in the project's folder.
   * It refuses (a LedgerError with `data.reason` dependenciesNotDone / writeScopeConflict) when
   * another process started an overlapping task since the check: the pair is held, not failed.
   */
  worktreeFor?: (taskId: number, agentId: string, overrides: { allowOverlap: boolean }) => Promise<{ cwd: string; sessionId: number } | undefined>;
  /** Launch even when the task's write scope overlaps a running task's (conflict-aware scheduling off). */
  allowOverlap?: boolean;
  now?: () => Date;
  /** A held instance whose runner sent no heartbeat for this long is free. Default 2 minutes. */
  staleAfterMs?: number;
  /** How long a launch ticket can be redeemed. Default 10 minutes. */
  ticketTtlMs?: number;
}

interface InstanceRow {
  status: string;
  execution_id: number | null;
  heartbeat_at: string | null;
}

interface OpenRunRow {
  id: number;
  agent: string;
  project_id: number;
  task_id: number | null;
  client: string | null;
  process_id: string | null;
  log_path: string | null;
  started_at: string;
  pid: number | null;
}

/** A worker_command refusal that means "not now" (another process started an overlapping task first), as a hold. */
function holdOf(err: unknown): LaunchHold | undefined {
  if (!LedgerError.is(err, 'InvalidStatus')) return undefined;
  const reason = err.data?.reason;
  const blockedBy = Array.isArray(err.data?.blockedBy) ? (err.data.blockedBy as string[]) : [];
  if (reason === 'writeScopeConflict') return { reason: 'conflict', detail: err.message, blockedBy };
  if (reason === 'dependenciesNotDone') return { reason: 'dependencies', detail: err.message, blockedBy };
  return undefined;
}

export class LedgerForRunner implements RunnerLedger {
  private readonly now: () => Date;

  constructor(private readonly o: LedgerForRunnerOptions) {
    this.now = o.now ?? (() => new Date());
  }

  async healthCheck(): Promise<boolean> {
    try {
      await this.o.engine.read((db) => db.get('SELECT 1 AS ok'));
      return true;
    } catch {
      return false;
    }
  }

  async listActiveProjectsWithAgents(): Promise<ActiveProject[]> {
    return (await this.o.projects.activeWithAgents()).map((p) => ({ projectId: p.project_id, projectName: p.project_name, workingDirectory: p.working_directory, agents: p.agents }));
  }

  async shouldStart(agentId: string, projectId: string): Promise<StartDecision> {
    const decision = await this.o.runtime.shouldStart(agentId, projectId);
    return decision.should_start ? { shouldStart: true, aiType: decision.ai_type } : { shouldStart: false };
  }

  async startDecisions(pairs: ReadonlyArray<{ agentId: string; projectId: string }>): Promise<StartDecision[]> {
    const defined = new Map(this.o.agents.current().agents.map((a) => [a.name, a]));
    const nowIso = this.now().toISOString();
    return this.o.engine.read(async (db) => {
      const projects = new Set((await db.all<{ id: number }>('SELECT id FROM projects')).map((r) => Number(r.id)));
      const pair = (agent: string, project: number): string => JSON.stringify([agent, project]);
      const running = await db.all<{ agent: string; project_id: number }>('SELECT agent, project_id FROM agent_sessions WHERE ended_at IS NULL AND expires_at > ?', [nowIso]);
      const busy = new Set(running.map((r) => pair(r.agent, Number(r.project_id))));
      const work = await db.all<{ assignee: string; project_id: number }>(
        "SELECT DISTINCT assignee, project_id FROM tasks WHERE status = 'in_progress' AND project_id IS NOT NULL AND assignee IS NOT NULL",
      );
      const waiting = new Set(work.map((r) => pair(r.assignee, Number(r.project_id))));
      // The same four rules as should_start, for every pair in one read.
      return pairs.map(({ agentId, projectId }): StartDecision => {
        const agent = defined.get(agentId);
        const id = pmIdOf('project', projectId);
        if (!agent || id === undefined || !projects.has(id)) return { shouldStart: false };
        if (busy.has(pair(agentId, id))) return { shouldStart: false };
        return waiting.has(pair(agentId, id)) ? { shouldStart: true, aiType: aiTypeOf(agent.client) } : { shouldStart: false };
      });
    });
  }

  async prepareLaunch(agentId: string, projectId: string): Promise<LaunchTarget> {
    const agent = this.o.agents.lookup(agentId);
    const profile = launchProfileOf(agent);
    const allowOverlap = this.o.allowOverlap === true;
    const { project, task, hold } = await this.o.engine.read(async (db) => {
      const row = await projectRowOf(db, projectId);
      // The task get_my_task will hand out: dependencies done and, unless --allow-overlap, no scope overlap.
      const next = await nextAssignedTask(db, row.id, agentId, allowOverlap ? undefined : { agentScope: agent.scope.write });
      return { project: row, task: next.task?.id ?? next.held?.taskId ?? null, hold: next.task ? undefined : next.held };
    });
    const [active] = (await this.listActiveProjectsWithAgents()).filter((p) => p.projectId === projectKey(project.id));
    let held: LaunchHold | undefined = hold ? { reason: hold.reason, detail: hold.detail, blockedBy: hold.blockedBy } : undefined;
    let worktree: { cwd: string; sessionId: number } | undefined;
    if (!held && task !== null && this.o.worktreeFor) {
      try {
        worktree = await this.o.worktreeFor(task, agentId, { allowOverlap });
      } catch (err) {
        held = holdOf(err);
        if (!held) throw err;
      }
    }
    return {
      agentId,
      agentName: agent.name,
      projectId: projectKey(project.id),
      projectName: project.name,
      taskId: task === null ? null : taskKey(task),
      cwd: worktree?.cwd ?? active?.workingDirectory ?? project.working_directory,
      ...(worktree ? { sessionId: worktree.sessionId } : {}),
      client: profile.client,
      model: profile.model,
      maxTurns: profile.maxTurns,
      access: profile.access,
      systemPrompt: agent.promptContent.trim() || undefined,
      limits: profile.limits,
      ...(held ? { hold: held } : {}),
    };
  }

  async claimInstance(target: LaunchTarget): Promise<string | undefined> {
    const now = this.now();
    const ts = now.toISOString();
    const staleBefore = new Date(now.getTime() - (this.o.staleAfterMs ?? 120_000)).toISOString();
    const projectId = parsePmId('project', target.projectId, 'project_id');
    const taskId = target.taskId === null ? null : parseId('task', target.taskId);
    const client = typeof target.client === 'string' ? target.client : target.client.program;
    return this.o.engine.write(async (tx) => {
      const held = await tx.get<InstanceRow>('SELECT status, execution_id, heartbeat_at FROM agent_instances WHERE agent = ? AND project_id = ?', [target.agentId, projectId]);
      if (held?.status === 'running' && held.heartbeat_at !== null && held.heartbeat_at > staleBefore) {
        if (target.sessionId !== undefined) await endUnclaimedSession(tx, target.sessionId, 'another runner runs this agent in this project', now);
        return undefined;
      }
      if (held?.status === 'running' && held.execution_id !== null) {
        const stale = await tx.get<{ status: string }>('SELECT status FROM execution_logs WHERE id = ?', [held.execution_id]);
        const error = 'its runner stopped answering; the instance was taken over';
        if (stale?.status === 'running') await closeExecution(tx, Number(held.execution_id), { status: 'error', error }, now);
        await endRunSessions(tx, executionKey(Number(held.execution_id)), { ok: false, reason: error }, now);
      }
      const id = await openExecution(tx, { taskId, agent: target.agentId, projectId, sessionId: null, ts });
      await tx.run('UPDATE execution_logs SET client = ?, runner_id = ? WHERE id = ?', [client, this.o.runnerId, id]);
      await tx.run(
        `INSERT INTO agent_instances (agent, project_id, status, task_id, runner_id, started_at, heartbeat_at, updated_at, execution_id)
         VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?)
         ON CONFLICT (agent, project_id) DO UPDATE SET status = 'running', task_id = excluded.task_id, runner_id = excluded.runner_id, started_at = excluded.started_at,
           heartbeat_at = excluded.heartbeat_at, updated_at = excluded.updated_at, execution_id = excluded.execution_id, pid = NULL, process_id = NULL,
           ticket_hash = NULL, ticket_expires_at = NULL`,
        [target.agentId, projectId, taskId, this.o.runnerId, ts, ts, ts, id],
      );
      if (target.sessionId !== undefined) await tieRunSession(tx, target.sessionId, executionKey(id));
      // A session an earlier runner prepared for this task and agent, and died before claiming.
      if (taskId !== null) await endUntiedSessions(tx, taskId, target.agentId, target.sessionId, now);
      return executionKey(id);
    });
  }

  async dropPrepared(sessionId: number, reason: string): Promise<void> {
    await this.o.engine.write((tx) => endUnclaimedSession(tx, sessionId, `its run could not be claimed: ${reason}`, this.now()));
  }

  async releaseInstance(executionId: string, reason: string): Promise<void> {
    const id = parsePmId('execution', executionId, 'execution_id');
    const now = this.now();
    await this.o.engine.write(async (tx) => {
      await closeExecution(tx, id, { status: 'error', error: `the agent could not be started: ${reason}` }, now);
      await endRunSessions(tx, executionId, { ok: false, reason: `the agent could not be started: ${reason}` }, now);
      await this.freeInstance(tx, id, now.toISOString(), false);
    });
  }

  async heartbeat(executionIds: readonly string[]): Promise<void> {
    const ids = executionIds.map((e) => parsePmId('execution', e, 'execution_id'));
    if (ids.length === 0) return;
    const ts = this.now().toISOString();
    await this.o.engine.write((tx) => tx.run(`UPDATE agent_instances SET heartbeat_at = ? WHERE execution_id IN (${ids.map(() => '?').join(', ')})`, [ts, ...ids]));
  }

  async openRuns(): Promise<RunStart[]> {
    const rows = await this.o.engine.read((db) =>
      db.all<OpenRunRow>(
        `SELECT e.id, e.agent, e.project_id, e.task_id, e.client, e.process_id, e.log_path, e.started_at, i.pid
           FROM execution_logs e LEFT JOIN agent_instances i ON i.execution_id = e.id
          WHERE e.runner_id = ? AND e.status = 'running' AND e.process_id IS NOT NULL ORDER BY e.id`,
        [this.o.runnerId],
      ),
    );
    return rows.map((r) => ({
      executionId: executionKey(Number(r.id)),
      agentId: r.agent,
      projectId: projectKey(Number(r.project_id)),
      taskId: r.task_id === null ? null : taskKey(Number(r.task_id)),
      client: r.client ?? '',
      pid: Number(r.pid ?? 0),
      logFile: r.log_path ?? '',
      startedAt: r.started_at,
    }));
  }

  async issueLaunchTicket(executionId: string): Promise<string> {
    const id = parsePmId('execution', executionId, 'execution_id');
    const ticket = randomBytes(32).toString('base64url');
    const expires = new Date(this.now().getTime() + (this.o.ticketTtlMs ?? 10 * 60_000)).toISOString();
    await this.o.engine.write((tx) => tx.run('UPDATE agent_instances SET ticket_hash = ?, ticket_expires_at = ? WHERE execution_id = ?', [hashSessionToken(ticket), expires, id]));
    return ticket;
  }

  async runStarted(run: RunStart): Promise<void> {
    const id = parsePmId('execution', run.executionId, 'execution_id');
    const ts = this.now().toISOString();
    await this.o.engine.write(async (tx) => {
      await tx.run('UPDATE execution_logs SET process_id = ?, log_path = ? WHERE id = ?', [run.executionId, run.logFile, id]);
      await tx.run('UPDATE agent_instances SET pid = ?, process_id = ?, heartbeat_at = ? WHERE execution_id = ?', [run.pid, run.executionId, ts, id]);
      await appendPmEvent(tx, { ts, kind: 'runner.launched', entity: 'execution', entityId: String(id), payload: { agent: run.agentId, project: run.projectId, client: run.client, pid: run.pid } });
    });
  }

  async runEnded(run: RunEnd): Promise<void> {
    const id = parsePmId('execution', run.executionId, 'execution_id');
    const now = this.now();
    const ts = now.toISOString();
    const { exit, usage } = run;
    const ok = exit.exitCode === 0 && exit.limit === null;
    await this.o.engine.write(async (tx) => {
      const row = await tx.get<{ status: string }>('SELECT status FROM execution_logs WHERE id = ?', [id]);
      if (row?.status === 'running') {
        // The agent never reported: the run ends with what the process says.
        const error = ok ? 'the agent exited without report_completed' : `the agent ${endReason(exit)}${exit.tail.length ? `; last output:\n${exit.tail.slice(-10).join('\n')}` : ''}`;
        await closeExecution(tx, id, { status: ok ? 'completed' : 'error', error }, now);
      }
      await tx.run(
        `UPDATE execution_logs SET exit_code = ?, signal = ?, duration_ms = ?, log_path = ?, input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cost_usd = ?
          WHERE id = ?`,
        [exit.exitCode, exit.signal, Math.round(exit.durationMs), exit.logFile, usage?.inputTokens ?? null, usage?.outputTokens ?? null, usage?.cacheReadTokens ?? null, usage?.costUsd ?? null, id],
      );
      // A session the agent left open ends with its process: the pair is free again; so does the
      // worktree's session, or its task would still count as worked on (and hold overlapping ones).
      await tx.run("UPDATE agent_sessions SET ended_at = ?, ended_reason = 'process_exited' WHERE execution_id = ? AND ended_at IS NULL", [ts, id]);
      await endRunSessions(tx, run.executionId, { ok, reason: runEndReason(exit), exit }, now);
      await this.freeInstance(tx, id, ts, ok);
      await appendPmEvent(tx, {
        ts,
        kind: 'runner.run_ended',
        entity: 'execution',
        entityId: String(id),
        payload: { agent: run.agentId, project: run.projectId, exitCode: exit.exitCode, signal: exit.signal, limit: exit.limit, costUsd: usage?.costUsd ?? null },
      });
    });
  }

  private async freeInstance(tx: AsyncSqlWriter, executionId: number, ts: string, ok: boolean): Promise<void> {
    const failures = ok ? '0' : 'consecutive_failures + 1';
    await tx.run(
      `UPDATE agent_instances SET status = 'idle', pid = NULL, ticket_hash = NULL, ticket_expires_at = NULL, updated_at = ?, consecutive_failures = ${failures}
        WHERE execution_id = ?`,
      [ts, executionId],
    );
  }
}
