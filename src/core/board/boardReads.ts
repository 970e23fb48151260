import type { TaskWaiting } from '../tasks/taskModel';
import type { AsyncSqlReader } from '../ports/store';
import { handoffKey } from '../ids';
import { manualReviewOf } from '../tasks/taskReviews';
import type { BoardHandoff, BoardTaskRow, BoardWaitingPipeline } from './boardModel';
import { taskCosts } from '../costs/costRollup';
import { pendingHandoffRows } from '../runtime/pm/pendingHandoffs';

/**
 * The Board's reads (boardQueries.ts): task rows with their last session, cost, pending handoffs
 * and reviews, pipelines waiting for a person, and the agents known to the ledger.
 */

interface TaskRow {
  id: number;
  title: string;
  status: string;
  result: string | null;
  assignee: string | null;
  last_milestone: string | null;
  progress: number | null;
  workflow: string | null;
  outcome: string | null;
  completed_at: string | null;
  updated_at: string;
  held_by: string | null;
  held_at: string | null;
  waiting: string | null;
}

export async function readTasks(db: AsyncSqlReader): Promise<BoardTaskRow[]> {
  const rows = await db.all<TaskRow>(
    `SELECT t.id, t.title, t.status, t.result, t.assignee, t.last_milestone, t.progress, w.name AS workflow, t.outcome, t.completed_at, t.updated_at, t.held_by, t.held_at, t.waiting
     FROM tasks t LEFT JOIN workflows w ON w.id = t.workflow_id`,
  );
  const reviews = new Map<number, { id: number; description: string }>();
  for (const r of await db.all<{ id: number; task_id: number; description: string }>(
    'SELECT id, task_id, description FROM issues WHERE requires_human_review = 1 ORDER BY id',
  )) {
    reviews.set(Number(r.task_id), { id: Number(r.id), description: r.description });
  }
  const sessions = await latestSessions(db);
  const costs = await costByTask(db);
  const handoffs = await pendingHandoffs(db);
  const reviewed = await latestReviews(db);
  return rows.map((r) => {
    const id = Number(r.id);
    return {
      id,
      title: r.title,
      status: r.status,
      result: r.result,
      assignee: r.assignee,
      lastMilestone: r.last_milestone,
      progress: r.progress === null ? null : Number(r.progress),
      workflow: r.workflow,
      manualReview: manualReviewOf(r.outcome),
      reviewIssue: reviews.get(id) ?? null,
      session: sessions.get(id) ?? null,
      cost: costs.get(id) ?? null,
      handoffs: handoffs.get(id) ?? [],
      review: reviewed.get(id) ?? null,
      completedAt: r.completed_at,
      updatedAt: r.updated_at,
      hold: r.held_by && r.held_at ? { by: r.held_by, at: r.held_at } : null,
      waiting: r.waiting ? (JSON.parse(r.waiting) as TaskWaiting) : null,
    };
  });
}

/**
 * What the runs of each task cost, in USD, from the cost roll-up (core/costs): a task none of whose
 * runs reported a cost is absent (its card shows a blank, never $0). Every task when `taskIds` is
 * left out; else only those.
 */
export async function costByTask(db: AsyncSqlReader, taskIds?: readonly number[]): Promise<Map<number, number>> {
  const priced = [...(await taskCosts(db, taskIds))].filter(
    ([, c]) => c.costUsd > 0 || c.runs - c.running - c.unpricedRuns > 0,
  );
  return new Map(priced.map(([id, c]) => [id, c.costUsd]));
}

/** Each task's handoffs not accepted yet, oldest first (the one pending-handoffs read: handoffs/pendingHandoffs.ts). */
export async function pendingHandoffs(db: AsyncSqlReader): Promise<Map<number, BoardHandoff[]>> {
  const out = new Map<number, BoardHandoff[]>();
  for (const r of await pendingHandoffRows(db)) {
    const list = out.get(r.task_id) ?? [];
    list.push({ id: handoffKey(r.id), from: r.from_agent, to: r.to_agent });
    out.set(r.task_id, list);
  }
  return out;
}

/** The latest review a person recorded on each task (core/tasks/taskReviews.ts). */
async function latestReviews(
  db: AsyncSqlReader,
): Promise<Map<number, { issueThrough: number; completedAt: string | null }>> {
  const rows = await db.all<{ task_id: number; issue_through: number; completed_at: string | null }>(
    'SELECT task_id, issue_through, completed_at FROM task_reviews ORDER BY id',
  );
  return new Map(
    rows.map((r) => [Number(r.task_id), { issueThrough: Number(r.issue_through), completedAt: r.completed_at }]),
  );
}

/** The agent and client of each task's latest session. */
export async function latestSessions(
  db: AsyncSqlReader,
  workflowId?: number,
): Promise<Map<number, { agent: string; client: string | null }>> {
  const rows = await db.all<{ task_id: number; agent: string; client: string | null }>(
    `SELECT s.task_id, s.agent, s.client FROM sessions s
     JOIN (SELECT task_id, MAX(id) AS id FROM sessions GROUP BY task_id) latest ON latest.id = s.id
     ${workflowId === undefined ? '' : 'JOIN tasks t ON t.id = s.task_id WHERE t.workflow_id = ?'}`,
    workflowId === undefined ? [] : [workflowId],
  );
  return new Map(rows.map((r) => [Number(r.task_id), { agent: r.agent, client: r.client }]));
}

export async function readWaiting(db: AsyncSqlReader): Promise<BoardWaitingPipeline[]> {
  const rows = await db.all<{
    id: number;
    workspace: string;
    title: string;
    workflow: string | null;
    waiting: string | null;
    updated_at: string;
  }>(
    `SELECT p.id, p.workspace, p.title, w.name AS workflow, p.waiting, p.updated_at FROM pipelines p LEFT JOIN workflows w ON w.id = p.workflow_id
     WHERE p.status = 'awaiting_human'`,
  );
  const out: BoardWaitingPipeline[] = [];
  for (const r of rows) {
    let waiting: { kind?: unknown; name?: unknown } | null = null;
    try {
      waiting = r.waiting ? (JSON.parse(r.waiting) as { kind?: unknown; name?: unknown }) : null;
    } catch {
      waiting = null;
    }
    out.push({
      id: Number(r.id),
      workspace: r.workspace,
      title: r.title,
      workflow: r.workflow,
      kind: waiting?.kind === 'human_gate' ? 'human_gate' : 'checkpoint',
      name: typeof waiting?.name === 'string' ? waiting.name : 'checkpoint',
      updatedAt: r.updated_at,
    });
  }
  return out;
}

/** Who a handoff can be addressed to without a person: defined agents and the agents of every project. */
export async function agentNames(db: AsyncSqlReader, defined: readonly { name: string }[]): Promise<Set<string>> {
  const members = await db.all<{ agent: string }>('SELECT DISTINCT agent FROM project_agents');
  return new Set([...defined.map((a) => a.name), ...members.map((m) => m.agent)]);
}

export async function readAgents(db: AsyncSqlReader): Promise<{ name: string; client: string | null }[]> {
  return db.all<{ name: string; client: string | null }>('SELECT name, client FROM agents ORDER BY name');
}
