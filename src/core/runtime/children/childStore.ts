import type { AsyncSqlReader, AsyncSqlWriter } from '../../ports/store';
import type { ProcessExit } from '../../ports/processes';
import type { ChildLimits, ChildState } from './childContracts';
import { callerTokenId } from '../../caller';

/**
 * The `children` table (migration v10) through the asynchronous port: plain statements valid on
 * both engines, every value computed in TypeScript. Each change appends a `child.*` event with
 * its correlation ids in the same transaction, so views and `events_subscribe` see it.
 */

export interface ChildRow {
  child_id: string;
  kind: 'command' | 'codex';
  program: string;
  args: string;
  workdir: string;
  role: string | null;
  limits: string;
  metadata: string;
  manifest_path: string;
  log_path: string;
  state: ChildState;
  pid: number | null;
  owner_pid: number;
  owner_host: string;
  messages_sent: number;
  run_id: string | null;
  op_id: string | null;
  job_id: string | null;
  graph_id: string | null;
  node_id: string | null;
  error: string | null;
  created_at: number;
  started_at: number | null;
  attached_at: number | null;
  updated_at: number;
  ended_at: number | null;
  exit_code: number | null;
  signal: string | null;
  limit_hit: 'wallClock' | 'outputBytes' | 'idle' | null;
  stopped: number;
}

export interface Correlation {
  run_id: string | null;
  op_id: string | null;
  job_id: string | null;
  graph_id: string | null;
  node_id: string | null;
}

const columns =
  'child_id, kind, program, args, workdir, role, limits, metadata, manifest_path, log_path, state, pid, owner_pid, owner_host, messages_sent, run_id, op_id, job_id, graph_id, node_id, error, created_at, started_at, attached_at, updated_at, ended_at, exit_code, signal, limit_hit, stopped';

const numberOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Numbers come back as numbers on both engines, but bigint columns may need the nudge. */
function normalise(row: ChildRow): ChildRow {
  return {
    ...row,
    pid: numberOrNull(row.pid),
    owner_pid: Number(row.owner_pid),
    messages_sent: Number(row.messages_sent),
    created_at: Number(row.created_at),
    started_at: numberOrNull(row.started_at),
    attached_at: numberOrNull(row.attached_at),
    updated_at: Number(row.updated_at),
    ended_at: numberOrNull(row.ended_at),
    exit_code: numberOrNull(row.exit_code),
    stopped: Number(row.stopped),
  };
}

export async function getChild(db: AsyncSqlReader, childId: string): Promise<ChildRow | undefined> {
  const row = await db.get<ChildRow>(`SELECT ${columns} FROM children WHERE child_id = ?`, [childId]);
  return row ? normalise(row) : undefined;
}

export async function listChildren(
  db: AsyncSqlReader,
  options: { state?: ChildState; limit: number },
): Promise<ChildRow[]> {
  const where = options.state ? 'WHERE state = ?' : '';
  const params = options.state ? [options.state, options.limit] : [options.limit];
  const rows = await db.all<ChildRow>(
    `SELECT ${columns} FROM children ${where} ORDER BY created_at DESC, child_id DESC LIMIT ?`,
    params,
  );
  return rows.map(normalise);
}

export async function countRunning(db: AsyncSqlReader): Promise<number> {
  const row = await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM children WHERE state IN ('starting', 'running')");
  return Number(row?.n ?? 0);
}

/** Appends a `child.<what>` event carrying the child's correlation ids. */
export async function appendChildEvent(
  tx: AsyncSqlWriter,
  what: string,
  childId: string,
  corr: Correlation,
  now: number,
  payload: Record<string, unknown>,
): Promise<number> {
  return tx.insert(
    'INSERT INTO events (ts, kind, entity, entity_id, payload, run_id, op_id, job_id, graph_id, node_id, child_id, token_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq',
    [
      new Date(now).toISOString(),
      `child.${what}`,
      'child',
      childId,
      JSON.stringify({ child_id: childId, ...payload }),
      corr.run_id,
      corr.op_id,
      corr.job_id,
      corr.graph_id,
      corr.node_id,
      childId,
      callerTokenId(),
    ],
  );
}

export interface NewChild {
  child_id: string;
  kind: 'command' | 'codex';
  program: string;
  args: string[];
  workdir: string;
  role: string | null;
  limits: ChildLimits;
  metadata: Record<string, unknown>;
  manifest_path: string;
  log_path: string;
  owner_pid: number;
  owner_host: string;
}

/**
 * Inserts a child about to start, as `starting` (no pid yet: a row listed `running` always has its
 * pid); false when the id exists.
 */
export async function insertChild(
  tx: AsyncSqlWriter,
  child: NewChild,
  corr: Correlation,
  now: number,
): Promise<boolean> {
  const { changes } = await tx.run(
    `INSERT INTO children (child_id, kind, program, args, workdir, role, limits, metadata, manifest_path, log_path, state, owner_pid, owner_host, run_id, op_id, job_id, graph_id, node_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'starting', ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (child_id) DO NOTHING`,
    [
      child.child_id,
      child.kind,
      child.program,
      JSON.stringify(child.args),
      child.workdir,
      child.role,
      JSON.stringify(child.limits),
      JSON.stringify(child.metadata),
      child.manifest_path,
      child.log_path,
      child.owner_pid,
      child.owner_host,
      corr.run_id,
      corr.op_id,
      corr.job_id,
      corr.graph_id,
      corr.node_id,
      now,
      now,
    ],
  );
  if (changes === 0) return false;
  await appendChildEvent(tx, 'created', child.child_id, corr, now, {
    kind: child.kind,
    program: child.program,
    role: child.role,
  });
  return true;
}

/**
 * Records the pid of a started child and makes it `running`, in one statement. False when the row
 * is no longer `starting` (another process stopped it meanwhile): the pid is still recorded, and
 * the caller stops the process.
 */
export async function markStarted(
  tx: AsyncSqlWriter,
  row: ChildRow,
  pid: number,
  startedAt: number,
  now: number,
): Promise<boolean> {
  const { changes } = await tx.run(
    "UPDATE children SET state = 'running', pid = ?, started_at = ?, updated_at = ? WHERE child_id = ? AND state = 'starting'",
    [pid, startedAt, now, row.child_id],
  );
  if (changes === 0)
    await tx.run('UPDATE children SET pid = ?, started_at = ?, updated_at = ? WHERE child_id = ?', [
      pid,
      startedAt,
      now,
      row.child_id,
    ]);
  await appendChildEvent(tx, 'started', row.child_id, row, now, { pid });
  return changes > 0;
}

export async function markFailed(tx: AsyncSqlWriter, row: ChildRow, error: string, now: number): Promise<void> {
  await tx.run("UPDATE children SET state = 'failed', error = ?, ended_at = ?, updated_at = ? WHERE child_id = ?", [
    error,
    now,
    now,
    row.child_id,
  ]);
  await appendChildEvent(tx, 'failed', row.child_id, row, now, { error });
}

/** Records how a run ended, once (a second report of the same end changes nothing). */
export async function markExited(
  tx: AsyncSqlWriter,
  row: ChildRow,
  exit: Pick<ProcessExit, 'pid' | 'exitCode' | 'signal' | 'limit' | 'stopped' | 'startedAt' | 'endedAt' | 'durationMs'>,
  state: 'exited' | 'lost',
  now: number,
): Promise<boolean> {
  const { changes } = await tx.run(
    `UPDATE children SET state = ?, pid = ?, started_at = coalesce(started_at, ?), ended_at = ?, exit_code = ?, signal = ?, limit_hit = ?, stopped = ?, updated_at = ?
     WHERE child_id = ? AND state IN ('starting', 'running')`,
    [
      state,
      exit.pid,
      Date.parse(exit.startedAt),
      Date.parse(exit.endedAt),
      exit.exitCode,
      exit.signal,
      exit.limit,
      exit.stopped ? 1 : 0,
      now,
      row.child_id,
    ],
  );
  if (changes === 0) return false;
  await appendChildEvent(tx, state, row.child_id, row, now, {
    exit_code: exit.exitCode,
    signal: exit.signal,
    limit: exit.limit,
    stopped: exit.stopped,
    duration_ms: exit.durationMs,
  });
  return true;
}

/** Changes the manifest fields of a child (role, limits, attachment, correlations). */
export async function updateManifest(
  tx: AsyncSqlWriter,
  row: ChildRow,
  change: {
    what: 'attached' | 'role' | 'limits';
    role?: string;
    limits?: ChildLimits;
    attached_at?: number;
    run_id?: string;
    op_id: string;
  },
  now: number,
): Promise<void> {
  const role = change.role ?? row.role;
  const limits = change.limits ? JSON.stringify(change.limits) : row.limits;
  const attachedAt = change.attached_at ?? row.attached_at;
  const runId = change.run_id ?? row.run_id;
  await tx.run(
    'UPDATE children SET role = ?, limits = ?, attached_at = ?, run_id = ?, op_id = ?, updated_at = ? WHERE child_id = ?',
    [role, limits, attachedAt, runId, change.op_id, now, row.child_id],
  );
  const payload: Record<string, unknown> =
    change.what === 'role'
      ? { role }
      : change.what === 'limits'
        ? { limits: change.limits }
        : { attached_at: attachedAt };
  await appendChildEvent(tx, change.what, row.child_id, { ...row, run_id: runId, op_id: change.op_id }, now, payload);
}

/** Counts one input written to the child. */
export async function countMessage(
  tx: AsyncSqlWriter,
  row: ChildRow,
  bytes: number,
  opId: string,
  now: number,
): Promise<number> {
  await tx.run('UPDATE children SET messages_sent = messages_sent + 1, updated_at = ? WHERE child_id = ?', [
    now,
    row.child_id,
  ]);
  await appendChildEvent(tx, 'input', row.child_id, { ...row, op_id: opId }, now, { bytes });
  const after = await tx.get<{ n: number }>('SELECT messages_sent AS n FROM children WHERE child_id = ?', [
    row.child_id,
  ]);
  return Number(after?.n ?? 0);
}

/** Takes back the count of an input that could not be written. */
export async function uncountMessage(tx: AsyncSqlWriter, childId: string, now: number): Promise<void> {
  await tx.run(
    'UPDATE children SET messages_sent = messages_sent - 1, updated_at = ? WHERE child_id = ? AND messages_sent > 0',
    [now, childId],
  );
}
