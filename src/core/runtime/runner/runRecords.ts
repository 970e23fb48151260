/**
 * A run's life as the ledger records it: its process started (pid, log), how it ended (the
 * execution log closed with the process's exit when the agent never reported, tokens and cost,
 * the sessions it left open ended, the instance freed), and the runs a restarted runner finds
 * open. The statements of LedgerForRunner's writes and reads.
 */
import type { AsyncSqlReader, AsyncSqlWriter } from '../../ports/store';
import { taskKey, executionKey, parsePmId, projectKey } from '../../ids';
import { appendPmEvent } from '../pm/projectRows';
import { closeExecution } from '../pm/executionLogs';
import { freeInstance } from './instanceClaims';
import { endReason, neverTookTask } from './runEnds';
import type { RunEnd, RunOutcome, RunStart } from './runnerPort';
import { endRunSessions, runEndReason } from './runSessions';

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

/**
 * The runs `runnerId` left open with a process: what a restarted runner looks at first. A run the
 * agent closed with its report still holds its (agent, project) pair until its runner records the
 * process's end, so a runner that died between the two leaves that run here too.
 */
export async function readOpenRuns(db: AsyncSqlReader, runnerId: string): Promise<RunStart[]> {
  const rows = await db.all<OpenRunRow>(
    `SELECT e.id, e.agent, e.project_id, e.task_id, e.client, e.process_id, e.log_path, e.started_at, i.pid
       FROM execution_logs e LEFT JOIN agent_instances i ON i.execution_id = e.id
      WHERE e.runner_id = ? AND e.process_id IS NOT NULL AND (e.status = 'running' OR i.status = 'running') ORDER BY e.id`,
    [runnerId],
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

/** The run's process started: its pid and log on the execution log and the instance. */
export async function recordRunStart(tx: AsyncSqlWriter, run: RunStart, ts: string): Promise<void> {
  const id = parsePmId('execution', run.executionId, 'execution_id');
  await tx.run('UPDATE execution_logs SET process_id = ?, log_path = ? WHERE id = ?', [
    run.executionId,
    run.logFile,
    id,
  ]);
  await tx.run('UPDATE agent_instances SET pid = ?, process_id = ?, heartbeat_at = ? WHERE execution_id = ?', [
    run.pid,
    run.executionId,
    ts,
    id,
  ]);
  await appendPmEvent(tx, {
    ts,
    kind: 'runner.launched',
    entity: 'execution',
    entityId: String(id),
    payload: { agent: run.agentId, project: run.projectId, client: run.client, pid: run.pid },
  });
}

/** Whether the run's agent logged in and took its task (get_my_task gives the session its task). */
async function tookItsTask(tx: AsyncSqlWriter, executionId: number): Promise<boolean> {
  const row = await tx.get<{ id: number }>(
    'SELECT id FROM agent_sessions WHERE execution_id = ? AND task_id IS NOT NULL LIMIT 1',
    [executionId],
  );
  return row !== undefined && row !== null;
}

/** The run ended: what the process says, when the agent did not report, its usage, and the pair freed. */
export async function recordRunEnd(tx: AsyncSqlWriter, run: RunEnd, now: Date): Promise<RunOutcome> {
  const id = parsePmId('execution', run.executionId, 'execution_id');
  const ts = now.toISOString();
  const { exit, usage } = run;
  let ok = exit.exitCode === 0 && exit.limit === null;
  const row = await tx.get<{ status: string; started_at: string; stopped_by: string | null }>(
    'SELECT status, started_at, stopped_by FROM execution_logs WHERE id = ?',
    [id],
  );
  if (row?.status === 'running' && row.stopped_by) {
    // A person stopped it: the run says so, and is no error.
    await closeExecution(tx, id, { status: 'stopped', summary: `stopped by ${row.stopped_by}` }, now);
  } else if (row?.status === 'running') {
    // The agent never reported: the run ends with what the process says.
    let error = ok
      ? 'the agent exited without report_completed'
      : `the agent ${endReason(exit)}${exit.tail.length ? `; last output:\n${exit.tail.slice(-10).join('\n')}` : ''}`;
    if (ok && run.taskId !== null && !(await tookItsTask(tx, id))) {
      // Claude Code and Gemini CLI go on, and exit 0, when an MCP server fails to start: a clean
      // exit that never reached the ledger is a failure, not a run that did nothing.
      ok = false;
      error = neverTookTask;
    }
    await closeExecution(tx, id, { status: ok ? 'completed' : 'error', error }, now);
  }
  // The run ends when its process does, also when the agent reported before: completedAt is then and
  // durationSeconds the run's span from its start, so the two always agree (the report keeps its result).
  const durationMs = row ? Math.max(0, now.getTime() - Date.parse(row.started_at)) : exit.durationMs;
  await tx.run(
    `UPDATE execution_logs SET completed_at = ?, exit_code = ?, signal = ?, duration_ms = ?, log_path = ?, input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cost_usd = ?
      WHERE id = ?`,
    [
      ts,
      exit.exitCode,
      exit.signal,
      Math.round(durationMs),
      exit.logFile,
      usage?.inputTokens ?? null,
      usage?.outputTokens ?? null,
      usage?.cacheReadTokens ?? null,
      usage?.costUsd ?? null,
      id,
    ],
  );
  // A session the agent left open ends with its process: the pair is free again; so does the
  // worktree's session, or its task would still count as worked on (and hold overlapping ones).
  await tx.run(
    "UPDATE agent_sessions SET ended_at = ?, ended_reason = 'process_exited' WHERE execution_id = ? AND ended_at IS NULL",
    [ts, id],
  );
  await endRunSessions(tx, run.executionId, { ok, reason: runEndReason(exit), exit }, now);
  await freeInstance(tx, id, ts, ok);
  await appendPmEvent(tx, {
    ts,
    kind: 'runner.run_ended',
    entity: 'execution',
    entityId: String(id),
    payload: {
      agent: run.agentId,
      project: run.projectId,
      exitCode: exit.exitCode,
      signal: exit.signal,
      limit: exit.limit,
      costUsd: usage?.costUsd ?? null,
    },
  });
  const recorded = await tx.get<RunOutcome>('SELECT status, result, error, summary FROM execution_logs WHERE id = ?', [
    id,
  ]);
  return recorded ?? { status: 'error', result: null, error: null, summary: null };
}
