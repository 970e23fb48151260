import type { AsyncSqlReader, AsyncSqlWriter, SqlValue } from '../ports/store';
import { fromJson, toJson } from '../json';
import { ownerProcess, thisMachine } from '../machine';
import type { AgentScope } from '../agents/agentModel';
import type { DodResult, SessionStatus } from './sessionContracts';
import type { SessionLiveness } from './sessionLiveness';

/** How a session came to be: an orchestrator's worker_command, or session_start for an external worker. */
export type SessionOrigin = 'worker_command' | 'session_start';

export interface SessionError {
  type: 'timeout' | 'crash' | 'signal' | 'unknown';
  message?: string;
}

/** One run of an agent on a task (the task-management contract). */
export interface Session {
  id: number;
  taskId: number;
  agent: string;
  client: string | null;
  origin: SessionOrigin;
  status: SessionStatus;
  sessionGroupId: string | null;
  idempotencyKey: string | null;
  /** Workspace-relative worktree, when the session works in one. */
  worktree: string | null;
  branch: string | null;
  scope: AgentScope | null;
  exitCode: number | null;
  signal: string | null;
  dodResult: DodResult | null;
  artifacts: string[];
  error: SessionError | null;
  startedAt: string;
  endedAt: string | null;
  durationSeconds: number | null;
  /** The person who ended it (its process gone); null when its worker or the runner ended it, or still running. */
  endedBy: string | null;
  /** Where the session's process runs: the machine, and its pid and start token (null before v25 or unknown). */
  process: { machine: string | null; pid: number | null; startToken: string | null };
}

export interface SessionRow {
  id: number;
  task_id: number;
  agent: string;
  client: string | null;
  origin: string;
  status: string;
  session_group_id: string | null;
  idempotency_key: string | null;
  worktree: string | null;
  branch: string | null;
  scope: string | null;
  exit_code: number | null;
  signal: string | null;
  dod_result: string | null;
  artifacts: string | null;
  error: string | null;
  started_at: string;
  ended_at: string | null;
  duration_seconds: number | null;
  machine_id?: string | null;
  pid?: number | null;
  pid_start?: string | null;
  ended_by?: string | null;
}

export function toSession(r: SessionRow): Session {
  return {
    id: r.id,
    taskId: r.task_id,
    agent: r.agent,
    client: r.client,
    origin: r.origin as SessionOrigin,
    status: r.status as SessionStatus,
    sessionGroupId: r.session_group_id,
    idempotencyKey: r.idempotency_key,
    worktree: r.worktree,
    branch: r.branch,
    scope: fromJson<AgentScope | null>(r.scope, null),
    exitCode: r.exit_code,
    signal: r.signal,
    dodResult: r.dod_result as DodResult | null,
    artifacts: fromJson<string[]>(r.artifacts, []),
    error: fromJson<SessionError | null>(r.error, null),
    startedAt: r.started_at,
    endedAt: r.ended_at,
    durationSeconds: r.duration_seconds,
    endedBy: r.ended_by ?? null,
    process: {
      machine: r.machine_id ?? null,
      pid: r.pid === null || r.pid === undefined ? null : Number(r.pid),
      startToken: r.pid_start ?? null,
    },
  };
}

export type NewSession = Pick<
  Session,
  'taskId' | 'agent' | 'client' | 'origin' | 'sessionGroupId' | 'idempotencyKey' | 'worktree' | 'scope' | 'startedAt'
>;

export function insertSession(tx: AsyncSqlWriter, s: NewSession): Promise<number> {
  return tx.insert(
    `INSERT INTO sessions (task_id, agent, client, origin, status, session_group_id, idempotency_key, worktree, scope, started_at, machine_id, os_user, pid, pid_start)
     VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      s.taskId,
      s.agent,
      s.client,
      s.origin,
      s.sessionGroupId,
      s.idempotencyKey,
      s.worktree,
      toJson(s.scope),
      s.startedAt,
      thisMachine().id,
      thisMachine().user,
      ownerProcess()?.pid ?? null,
      ownerProcess()?.startToken ?? null,
    ],
  );
}

export interface SessionEnd {
  status: SessionStatus;
  exitCode: number | null;
  signal: string | null;
  dodResult: DodResult | null;
  artifacts: string[];
  error: SessionError | null;
  endedAt: string;
  durationSeconds: number;
  /** A person's name when a person ended it (see Session.endedBy). */
  endedBy?: string | null;
}

export async function endSessionRow(tx: AsyncSqlWriter, id: number, e: SessionEnd): Promise<void> {
  await tx.run(
    'UPDATE sessions SET status = ?, exit_code = ?, signal = ?, dod_result = ?, artifacts = ?, error = ?, ended_at = ?, duration_seconds = ?, ended_by = ? WHERE id = ?',
    [
      e.status,
      e.exitCode,
      e.signal,
      e.dodResult,
      JSON.stringify(e.artifacts),
      toJson(e.error),
      e.endedAt,
      e.durationSeconds,
      e.endedBy ?? null,
      id,
    ],
  );
}

export async function setSessionBranch(tx: AsyncSqlWriter, id: number, branch: string): Promise<void> {
  await tx.run('UPDATE sessions SET branch = ? WHERE id = ?', [branch, id]);
}

export async function getSession(db: AsyncSqlReader, id: number): Promise<Session | undefined> {
  const row = await db.get<SessionRow>('SELECT * FROM sessions WHERE id = ?', [id]);
  return row && toSession(row);
}

export async function sessionByKey(db: AsyncSqlReader, key: string): Promise<Session | undefined> {
  const row = await db.get<SessionRow>('SELECT * FROM sessions WHERE idempotency_key = ?', [key]);
  return row && toSession(row);
}

/** Running sessions of a task, optionally of one agent, oldest first. */
export async function runningSessions(db: AsyncSqlReader, taskId: number, agent?: string): Promise<Session[]> {
  const rows =
    agent === undefined
      ? await db.all<SessionRow>("SELECT * FROM sessions WHERE status = 'running' AND task_id = ? ORDER BY id", [
          taskId,
        ])
      : await db.all<SessionRow>(
          "SELECT * FROM sessions WHERE status = 'running' AND task_id = ? AND agent = ? ORDER BY id",
          [taskId, agent],
        );
  return rows.map(toSession);
}

export interface SessionFilter {
  taskId?: number;
  status?: SessionStatus;
  agent?: string;
  limit: number;
  offset: number;
}

/** Sessions, newest first, and how many match in all. */
export async function listSessions(
  db: AsyncSqlReader,
  f: SessionFilter,
): Promise<{ sessions: Session[]; total: number }> {
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (f.taskId !== undefined) {
    where.push('task_id = ?');
    params.push(f.taskId);
  }
  if (f.status) {
    where.push('status = ?');
    params.push(f.status);
  }
  if (f.agent) {
    where.push('agent = ?');
    params.push(f.agent);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM sessions ${clause}`, params))?.n ?? 0;
  const rows = await db.all<SessionRow>(`SELECT * FROM sessions ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`, [
    ...params,
    f.limit,
    f.offset,
  ]);
  return { sessions: rows.map(toSession), total };
}

/** The JSON of a session in tool results and the CLI's --json. */
export type SessionView = Omit<Session, 'idempotencyKey' | 'scope' | 'process' | 'endedBy'> & {
  /** The person who ended it; absent when its worker or the runner did. */
  endedBy?: string;
  /** A running session's process as seen from here (session_list; absent on an ended session). */
  liveness?: SessionLiveness;
};

export function sessionView(s: Session): SessionView {
  return {
    id: s.id,
    taskId: s.taskId,
    agent: s.agent,
    client: s.client,
    origin: s.origin,
    status: s.status,
    sessionGroupId: s.sessionGroupId,
    worktree: s.worktree,
    branch: s.branch,
    exitCode: s.exitCode,
    signal: s.signal,
    dodResult: s.dodResult,
    artifacts: s.artifacts,
    error: s.error,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
    durationSeconds: s.durationSeconds,
    ...(s.endedBy ? { endedBy: s.endedBy } : {}),
  };
}
