/**
 * The claim of an (agent, project) instance (`agent_instances`): held by one run at a time.
 * Claiming opens the run's execution log in the same transaction, so two runners racing for a
 * pair get one launch. The statements of LedgerForRunner's claim and release, inside its writes.
 *
 * Taking over another runner's run: its runner stopped sending heartbeats (`staleAfterMs`), but a
 * runner that stopped answering may only be frozen (SIGSTOP, a debugger, a machine that slept) with
 * its agent still at work, on a machine this one cannot look at. So a takeover also waits until
 * that agent is provably over: every agent runs with a wall-clock backstop that ends it a grace
 * after its wall clock even without its runner (the watchdog, src/processes/watchdog.ts), and the
 * claim records when that is (`cooldown_until`: the claim's time + wall clock + two graces + a
 * margin for the start and the machines' clocks). Until then the pair stays held; the taken-over
 * run's agent sessions are ended, so nothing it still says is accepted.
 */
import type { AsyncSqlWriter } from '../../ports/store';
import { parseId, executionKey, parsePmId } from '../../ids';
import { closeExecution, openExecution } from '../pm/executionLogs';
import type { LaunchTarget } from './runnerPort';
import { endRunSessions, endUnclaimedSession, endUntiedSessions, tieRunSession } from './runSessions';

interface InstanceRow {
  status: string;
  execution_id: number | null;
  heartbeat_at: string | null;
  cooldown_until: string | null;
}

/** Room for the agent's start after its claim and for two machines' clocks to differ. */
export const takeoverMarginMs = 30_000;
/** The supervisor's grace between SIGTERM and SIGKILL when a limit gives none. */
const defaultGraceMs = 2000;

/** When the agent of a run claimed at `now` with `limits` is over, even if its runner is not there to end it. */
function overAt(now: Date, limits: LaunchTarget['limits']): string | null {
  if (limits.wallClockMs === undefined) return null;
  const grace = limits.killGraceMs ?? defaultGraceMs;
  return new Date(now.getTime() + limits.wallClockMs + 2 * grace + takeoverMarginMs).toISOString();
}

/** Claims the instance for `target`'s run inside `tx`: its execution id, or undefined when another runner's run holds it. */
export async function claimInstanceIn(
  tx: AsyncSqlWriter,
  target: LaunchTarget,
  o: { runnerId: string; now: Date; staleAfterMs: number },
): Promise<string | undefined> {
  const now = o.now;
  const ts = now.toISOString();
  const staleBefore = new Date(now.getTime() - o.staleAfterMs).toISOString();
  const projectId = parsePmId('project', target.projectId, 'project_id');
  const taskId = target.taskId === null ? null : parseId('task', target.taskId);
  const client = typeof target.client === 'string' ? target.client : target.client.program;
  const held = await tx.get<InstanceRow>(
    'SELECT status, execution_id, heartbeat_at, cooldown_until FROM agent_instances WHERE agent = ? AND project_id = ?',
    [target.agentId, projectId],
  );
  const alive = held?.status === 'running' && held.heartbeat_at !== null && held.heartbeat_at > staleBefore;
  // A silent runner may be frozen with its agent at work: its run is not over before its backstop.
  const notOver = held?.status === 'running' && held.cooldown_until !== null && held.cooldown_until > ts;
  if (alive || notOver) {
    if (target.sessionId !== undefined)
      await endUnclaimedSession(tx, target.sessionId, 'another runner runs this agent in this project', now);
    return undefined;
  }
  if (held?.status === 'running' && held.execution_id !== null) {
    const stale = await tx.get<{ status: string }>('SELECT status FROM execution_logs WHERE id = ?', [
      held.execution_id,
    ]);
    const error = 'its runner stopped answering; the instance was taken over';
    if (stale?.status === 'running')
      await closeExecution(tx, Number(held.execution_id), { status: 'error', error }, now);
    await endRunSessions(tx, executionKey(Number(held.execution_id)), { ok: false, reason: error }, now);
    // Fenced: what the old run's agent might still say with its session is refused.
    await tx.run(
      "UPDATE agent_sessions SET ended_at = ?, ended_reason = 'taken_over' WHERE execution_id = ? AND ended_at IS NULL",
      [ts, held.execution_id],
    );
  }
  const id = await openExecution(tx, { taskId, agent: target.agentId, projectId, sessionId: null, ts });
  await tx.run('UPDATE execution_logs SET client = ?, runner_id = ?, working_directory = ? WHERE id = ?', [
    client,
    o.runnerId,
    target.cwd,
    id,
  ]);
  await tx.run(
    `INSERT INTO agent_instances (agent, project_id, status, task_id, runner_id, started_at, heartbeat_at, updated_at, execution_id, cooldown_until)
     VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (agent, project_id) DO UPDATE SET status = 'running', task_id = excluded.task_id, runner_id = excluded.runner_id, started_at = excluded.started_at,
       heartbeat_at = excluded.heartbeat_at, updated_at = excluded.updated_at, execution_id = excluded.execution_id, pid = NULL, process_id = NULL,
       ticket_hash = NULL, ticket_expires_at = NULL, cooldown_until = excluded.cooldown_until`,
    [target.agentId, projectId, taskId, o.runnerId, ts, ts, ts, id, overAt(now, target.limits)],
  );
  if (target.sessionId !== undefined) await tieRunSession(tx, target.sessionId, executionKey(id));
  // A session an earlier runner prepared for this task and agent, and died before claiming.
  if (taskId !== null) await endUntiedSessions(tx, taskId, target.agentId, target.sessionId, now);
  return executionKey(id);
}

/** The instance is free again; a failed run counts towards its cool-down. */
export async function freeInstance(tx: AsyncSqlWriter, executionId: number, ts: string, ok: boolean): Promise<void> {
  const failures = ok ? '0' : 'consecutive_failures + 1';
  await tx.run(
    `UPDATE agent_instances SET status = 'idle', pid = NULL, ticket_hash = NULL, ticket_expires_at = NULL, cooldown_until = NULL, updated_at = ?, consecutive_failures = ${failures}
      WHERE execution_id = ?`,
    [ts, executionId],
  );
}
