import type { AsyncSqlReader, AsyncSqlWriter } from '../../ports/store';
import { LedgerError } from '../../errors';
import { hashSessionToken } from './passkey';

/**
 * Sessions of agent instances: one per (agent, project) at a time, bound to a task once
 * get_my_task hands one out. The token is kept only as its SHA-256 digest. A session is active
 * while it is not ended and not expired; every call with its token moves the expiry forward
 * (inactivity, not age, ends it).
 */
export interface AgentSessionRow {
  id: number;
  agent: string;
  project_id: number;
  created_at: string;
  last_active_at: string;
  expires_at: string;
  ended_at: string | null;
  task_id: number | null;
  execution_id: number | null;
}

const columns = 'id, agent, project_id, created_at, last_active_at, expires_at, ended_at, task_id, execution_id';

/** The contract's message for a token that is unknown, ended or expired (the same for all three). */
export const invalidTokenMessage = 'Invalid or expired session_token';

function normalise(row: AgentSessionRow): AgentSessionRow {
  return {
    ...row,
    id: Number(row.id),
    project_id: Number(row.project_id),
    task_id: row.task_id === null ? null : Number(row.task_id),
    execution_id: row.execution_id === null ? null : Number(row.execution_id),
  };
}

/** The active session of `token`, or Unauthorized. */
export async function activeSession(db: AsyncSqlReader, token: string, nowIso: string): Promise<AgentSessionRow> {
  const row = await db.get<AgentSessionRow>(`SELECT ${columns} FROM agent_sessions WHERE token_hash = ?`, [
    hashSessionToken(token),
  ]);
  if (!row || row.ended_at !== null || row.expires_at <= nowIso) {
    throw new LedgerError('Unauthorized', invalidTokenMessage, { error: invalidTokenMessage });
  }
  return normalise(row);
}

/** The active session of `token`, its expiry moved to `ttlSeconds` after now. */
export async function touchSession(
  tx: AsyncSqlWriter,
  token: string,
  now: Date,
  ttlSeconds: number,
): Promise<AgentSessionRow> {
  const nowIso = now.toISOString();
  const row = await activeSession(tx, token, nowIso);
  const expires = new Date(now.getTime() + ttlSeconds * 1000).toISOString();
  await tx.run('UPDATE agent_sessions SET last_active_at = ?, expires_at = ? WHERE id = ?', [nowIso, expires, row.id]);
  return { ...row, last_active_at: nowIso, expires_at: expires };
}

/** The active session of (agent, project), if any. */
export async function activeSessionOf(
  db: AsyncSqlReader,
  agent: string,
  projectId: number,
  nowIso: string,
): Promise<AgentSessionRow | undefined> {
  const row = await db.get<AgentSessionRow>(
    `SELECT ${columns} FROM agent_sessions WHERE agent = ? AND project_id = ? AND ended_at IS NULL AND expires_at > ? ORDER BY id DESC LIMIT 1`,
    [agent, projectId, nowIso],
  );
  return row ? normalise(row) : undefined;
}

export async function endSession(
  tx: AsyncSqlWriter,
  sessionId: number,
  nowIso: string,
  reason: 'completed' | 'logout' | 'expired',
): Promise<void> {
  await tx.run('UPDATE agent_sessions SET ended_at = ?, ended_reason = ? WHERE id = ? AND ended_at IS NULL', [
    nowIso,
    reason,
    sessionId,
  ]);
}

/** Marks the expired, never-ended sessions of (agent, project) as ended by expiry (tidiness: they are inactive already). */
export async function endExpiredSessions(
  tx: AsyncSqlWriter,
  agent: string,
  projectId: number,
  nowIso: string,
): Promise<void> {
  await tx.run(
    "UPDATE agent_sessions SET ended_at = expires_at, ended_reason = 'expired' WHERE agent = ? AND project_id = ? AND ended_at IS NULL AND expires_at <= ?",
    [agent, projectId, nowIso],
  );
}
