import type { AsyncSqlReader, LedgerEngine } from '../ports/store';
import type { TaskStatus } from '../tasks/taskModel';
import type { Session, SessionRow } from './sessionRepo';
import { toSession } from './sessionRepo';
import { sessionLiveness } from './sessionLiveness';
import type { ProcessProber, SessionLiveness } from './sessionLiveness';
import { thisMachine } from '../machine';

/** An agent as the sessions know it (it may no longer have a definition file). */
export interface AgentActivity {
  agent: string;
  /** Running sessions whose process runs, or that this machine cannot call gone (elsewhere, unknown). */
  running: number;
  /** Running sessions whose process is gone (see sessionLiveness.ts): recorded running, nothing works on them. */
  stale: number;
  /** Of `running`, those whose process this machine saw run: the ones a later look may find gone. */
  alive: number;
  total: number;
  lastStartedAt: string;
}

/** A session as the Agents & Sessions view shows it: with its task and whether its worktree is still there. */
export interface AgentSession {
  session: Session;
  taskTitle: string;
  taskStatus: TaskStatus;
  /** The ledger has not recorded the removal of the session's worktree (cleanup, or by hand and noticed). */
  worktreeActive: boolean;
  /** A running session's process seen from here (`stale`: gone; see sessionLiveness.ts). */
  liveness?: SessionLiveness;
}

const sessionsWithTask = `SELECT s.*, t.title AS task_title, t.status AS task_status, CASE WHEN w.task_id IS NOT NULL THEN 1 ELSE 0 END AS worktree_active
  FROM sessions s JOIN tasks t ON t.id = s.task_id
  LEFT JOIN worktrees w ON w.task_id = s.task_id AND w.path = s.worktree AND w.removed_at IS NULL`;

type Row = SessionRow & { task_title: string; task_status: string; worktree_active: number };

/**
 * The read side of the Agents & Sessions tree: agents → their running and recent sessions, one
 * level per call, each call one read of the store (which catches up with other processes first).
 */
export class AgentSessionQueries {
  constructor(
    private readonly db: LedgerEngine,
    private readonly prober?: ProcessProber,
  ) {}

  /**
   * Every agent that has had a session, most recently started first, with its running sessions
   * counted by liveness: the one count every face shows (the editor's tree, the web board).
   */
  async agents(): Promise<AgentActivity[]> {
    const { groups, running } = await this.db.read(async (db) => ({
      groups: await db.all<{ agent: string; total: number; last_started_at: string }>(
        `SELECT agent, COUNT(*) AS total, MAX(started_at) AS last_started_at
         FROM sessions GROUP BY agent ORDER BY last_started_at DESC, agent`,
      ),
      running: await runningSessions(db),
    }));
    const liveness = await sessionLiveness(running, thisMachine().id, this.prober);
    return groups.map((r) => ({
      agent: r.agent,
      ...countByLiveness(running.filter((s) => s.agent === r.agent).map((s) => liveness.get(s.id))),
      total: Number(r.total),
      lastStartedAt: r.last_started_at,
    }));
  }

  /**
   * The liveness of every running session, as one string: while it stays the same, looking again
   * would show nothing new (a process that dies writes nothing, so the views compare this).
   */
  async livenessSignature(): Promise<string> {
    const running = await this.db.read(runningSessions);
    const liveness = await sessionLiveness(running, thisMachine().id, this.prober);
    return [...liveness].map(([id, l]) => `${id}:${l}`).join(',');
  }

  /** All running sessions of an agent (newest first), then its `recent` latest ended ones. */
  sessionsOf(agent: string, recent = 10): Promise<AgentSession[]> {
    return this.db
      .read(async (db) => {
        const running = await db.all<Row>(
          `${sessionsWithTask} WHERE s.agent = ? AND s.status = 'running' ORDER BY s.id DESC`,
          [agent],
        );
        const ended = await db.all<Row>(
          `${sessionsWithTask} WHERE s.agent = ? AND s.status <> 'running' ORDER BY s.id DESC LIMIT ?`,
          [agent, recent],
        );
        return [...running, ...ended].map(toAgentSession);
      })
      .then((items) => this.withLiveness(items));
  }

  /** One session with its task, or undefined. */
  async session(id: number): Promise<AgentSession | undefined> {
    const row = await this.db.read((db) => db.get<Row>(`${sessionsWithTask} WHERE s.id = ?`, [id]));
    return row && (await this.withLiveness([toAgentSession(row)]))[0];
  }

  /** The latest sessions of every agent, newest first: running ones, or those whose worktree is still there (the palette's pickers). */
  async latest(filter: { running?: boolean; withWorktree?: boolean }, limit = 100): Promise<AgentSession[]> {
    const where = [
      filter.running ? "s.status = 'running'" : '1 = 1',
      filter.withWorktree ? 'w.task_id IS NOT NULL' : '1 = 1',
    ].join(' AND ');
    return this.withLiveness(
      (
        await this.db.read((db) =>
          db.all<Row>(`${sessionsWithTask} WHERE ${where} ORDER BY s.id DESC LIMIT ?`, [limit]),
        )
      ).map(toAgentSession),
    );
  }

  private async withLiveness(items: AgentSession[]): Promise<AgentSession[]> {
    const liveness = await sessionLiveness(
      items.map((i) => i.session),
      thisMachine().id,
      this.prober,
    );
    return items.map((i) => (liveness.has(i.session.id) ? { ...i, liveness: liveness.get(i.session.id) } : i));
  }
}

async function runningSessions(db: AsyncSqlReader): Promise<Session[]> {
  return (await db.all<SessionRow>("SELECT * FROM sessions WHERE status = 'running'")).map(toSession);
}

/** Running sessions counted as a person reads them: a stale one (its process is gone) is not running. */
export function countByLiveness(
  running: readonly (SessionLiveness | undefined)[],
): Pick<AgentActivity, 'running' | 'stale' | 'alive'> {
  const stale = running.filter((l) => l === 'stale').length;
  return { running: running.length - stale, stale, alive: running.filter((l) => l === 'alive').length };
}

function toAgentSession(r: Row): AgentSession {
  return {
    session: toSession(r),
    taskTitle: r.task_title,
    taskStatus: r.task_status as TaskStatus,
    worktreeActive: r.worktree_active === 1,
  };
}
