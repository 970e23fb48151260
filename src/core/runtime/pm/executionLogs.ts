import type { AsyncSqlReader, AsyncSqlWriter, LedgerEngine, SqlValue } from '../../ports/store';
import { parseId, taskKey, executionKey, parsePmId, pmNotFound, projectKey } from '../../ids';
import { appendPmEvent } from './projectRows';
import { pmTaskRow } from './projectTaskService';
import type { ExecutionLog, ExecutionLogDetail, ExecutionStatus, ReportResult } from './runtimeContracts';

/** One run of an agent on a task: opened by get_my_task (or the deprecated report_execution_start), closed by report_completed or the runner. */
interface ExecutionRow {
  id: number;
  task_id: number | null;
  agent: string;
  project_id: number | null;
  session_id: number | null;
  status: ExecutionStatus;
  result: ReportResult | null;
  summary: string | null;
  started_at: string;
  completed_at: string | null;
  exit_code: number | null;
  signal: string | null;
  duration_ms: number | null;
  log_path: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  error: string | null;
  client: string | null;
  working_directory: string | null;
}

const columns =
  'id, task_id, agent, project_id, session_id, status, result, summary, started_at, completed_at, exit_code, signal, duration_ms, log_path, input_tokens, output_tokens, cost_usd, error, client, working_directory';

const num = (v: number | null): number | null => (v === null ? null : Number(v));

function summaryOf(r: ExecutionRow): ExecutionLog {
  return {
    executionId: executionKey(Number(r.id)),
    taskId: r.task_id === null ? null : taskKey(Number(r.task_id)),
    agentId: r.agent,
    projectId: r.project_id === null ? null : projectKey(Number(r.project_id)),
    status: r.status,
    result: r.result,
    exitCode: num(r.exit_code),
    signal: r.signal,
    durationSeconds: r.duration_ms === null ? null : Number(r.duration_ms) / 1000,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    inputTokens: num(r.input_tokens),
    outputTokens: num(r.output_tokens),
    costUsd: num(r.cost_usd),
    client: r.client,
  };
}

function detailOf(r: ExecutionRow): ExecutionLogDetail {
  return {
    ...summaryOf(r),
    logFilePath: r.log_path,
    summary: r.summary,
    error: r.error,
    workingDirectory: r.working_directory,
  };
}

export async function executionRow(db: AsyncSqlReader, ref: string | number): Promise<ExecutionRow> {
  const id = parsePmId('execution', ref, 'execution_id');
  const row = await db.get<ExecutionRow>(`SELECT ${columns} FROM execution_logs WHERE id = ?`, [id]);
  if (!row) throw pmNotFound('execution', ref, 'execution_id', 'list execution logs with list_execution_logs');
  return { ...row, id: Number(row.id) };
}

export async function openExecution(
  tx: AsyncSqlWriter,
  e: {
    taskId: number | null;
    workflowId?: number | null;
    agent: string;
    projectId: number | null;
    sessionId: number | null;
    ts: string;
  },
): Promise<number> {
  const id = await tx.insert(
    'INSERT INTO execution_logs (task_id, agent, project_id, session_id, status, started_at) VALUES (?, ?, ?, ?, ?, ?)',
    [e.taskId, e.agent, e.projectId, e.sessionId, 'running', e.ts],
  );
  await appendPmEvent(tx, {
    ts: e.ts,
    kind: 'execution.started',
    taskId: e.taskId,
    workflowId: e.workflowId ?? null,
    entity: 'execution',
    entityId: String(id),
    payload: { agent: e.agent },
  });
  return id;
}

/** What closes a run: report_completed's result, or the runner's exit code, signal, log and cost. */
export interface ExecutionEnd {
  status: Exclude<ExecutionStatus, 'running'>;
  result?: ReportResult;
  summary?: string | null;
  exitCode?: number | null;
  signal?: string | null;
  durationMs?: number | null;
  logPath?: string | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  costUsd?: number | null;
  error?: string | null;
}

/** Closes a run in `tx`; fields not given keep what is there. Returns the completion time. */
export async function closeExecution(tx: AsyncSqlWriter, id: number, end: ExecutionEnd, now: Date): Promise<string> {
  const row = await executionRow(tx, id);
  const ts = now.toISOString();
  const durationMs = end.durationMs ?? Math.max(0, now.getTime() - Date.parse(row.started_at));
  await tx.run(
    `UPDATE execution_logs SET status = ?, result = ?, summary = ?, completed_at = ?, exit_code = ?, signal = ?, duration_ms = ?, log_path = ?,
       input_tokens = ?, output_tokens = ?, cost_usd = ?, error = ? WHERE id = ?`,
    [
      end.status,
      end.result ?? row.result,
      end.summary ?? row.summary,
      ts,
      end.exitCode ?? row.exit_code,
      end.signal ?? row.signal,
      Math.round(durationMs),
      end.logPath ?? row.log_path,
      end.inputTokens ?? row.input_tokens,
      end.outputTokens ?? row.output_tokens,
      end.costUsd ?? row.cost_usd,
      end.error ?? row.error,
      id,
    ],
  );
  await appendPmEvent(tx, {
    ts,
    kind: 'execution.completed',
    taskId: row.task_id === null ? null : Number(row.task_id),
    entity: 'execution',
    entityId: String(id),
    payload: { status: end.status },
  });
  return ts;
}

/** Execution logs, read over the asynchronous port. */
export class ExecutionLogService {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Newest first. */
  list(filter: { taskRef?: string | number; agent?: string; limit: number }): Promise<ExecutionLog[]> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (filter.taskRef !== undefined) {
      where.push('task_id = ?');
      params.push(parseId('task', filter.taskRef));
    }
    if (filter.agent !== undefined) {
      where.push('agent = ?');
      params.push(filter.agent);
    }
    const sql = `SELECT ${columns} FROM execution_logs${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
    return this.engine.read(async (db) => (await db.all<ExecutionRow>(sql, [...params, filter.limit])).map(summaryOf));
  }

  /** Every run of a task, newest first; an unknown task is refused (TaskNotFound). */
  ofTask(taskRef: string | number): Promise<{ task_id: string; logs: ExecutionLog[] }> {
    return this.engine.read(async (db) => {
      const task = await pmTaskRow(db, taskRef);
      const rows = await db.all<ExecutionRow>(
        `SELECT ${columns} FROM execution_logs WHERE task_id = ? ORDER BY id DESC`,
        [task.id],
      );
      return { task_id: taskKey(task.id), logs: rows.map(summaryOf) };
    });
  }

  get(ref: string | number): Promise<ExecutionLogDetail> {
    return this.engine.read(async (db) => detailOf(await executionRow(db, ref)));
  }

  /** For the runner (in-process): closes a run with what the process left (exit code or signal, log, tokens, cost). */
  close(ref: string | number, end: ExecutionEnd): Promise<ExecutionLogDetail> {
    return this.engine.write(async (tx) => {
      const row = await executionRow(tx, ref);
      await closeExecution(tx, row.id, end, this.now());
      return detailOf(await executionRow(tx, row.id));
    });
  }
}
