import type { AsyncSqlReader, AsyncSqlWriter } from '../ports/store';
import type { Decision, Issue, Milestone, TimelineEntry } from './taskModel';
import { fromJson, toJson } from '../json';
import { thisMachine } from '../machine';

/** Decisions, issues and milestones: what happened during a task, in time order. */

export function insertDecision(tx: AsyncSqlWriter, d: Omit<Decision, 'id'>): Promise<number> {
  return tx.insert(
    'INSERT INTO decisions (task_id, category, question, options, chosen, reasoning, trade_offs, created_at, machine_id, os_user) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      d.taskId,
      d.category,
      d.question,
      JSON.stringify(d.options),
      d.chosen,
      d.reasoning,
      d.tradeOffs,
      d.createdAt,
      thisMachine().id,
      thisMachine().user,
    ],
  );
}

export function insertIssue(tx: AsyncSqlWriter, i: Omit<Issue, 'id'>): Promise<number> {
  return tx.insert(
    'INSERT INTO issues (task_id, type, description, resolution, requires_human_review, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    [i.taskId, i.type, i.description, i.resolution, i.requiresHumanReview ? 1 : 0, i.createdAt],
  );
}

export function insertMilestone(tx: AsyncSqlWriter, m: Omit<Milestone, 'id'>): Promise<number> {
  return tx.insert('INSERT INTO milestones (task_id, message, progress, metadata, created_at) VALUES (?, ?, ?, ?, ?)', [
    m.taskId,
    m.message,
    m.progress,
    toJson(m.metadata),
    m.createdAt,
  ]);
}

export interface TimelineCounts {
  decisions: number;
  issues: number;
  milestones: number;
}

export async function timelineCounts(db: AsyncSqlReader, taskId: number): Promise<TimelineCounts> {
  // Bare `?` (one per use): PostgreSQL has no numbered `?1`.
  const row = await db.get<TimelineCounts>(
    `SELECT (SELECT COUNT(*) FROM decisions WHERE task_id = ?) AS decisions,
            (SELECT COUNT(*) FROM issues WHERE task_id = ?) AS issues,
            (SELECT COUNT(*) FROM milestones WHERE task_id = ?) AS milestones`,
    [taskId, taskId, taskId],
  );
  return row ?? { decisions: 0, issues: 0, milestones: 0 };
}

export async function timeline(db: AsyncSqlReader, taskId: number): Promise<TimelineEntry[]> {
  return (await timelineWithCounts(db, taskId)).entries;
}

/** The timeline and how many of each kind it holds (the same numbers as `timelineCounts`, without asking again). */
export async function timelineWithCounts(
  db: AsyncSqlReader,
  taskId: number,
): Promise<{ entries: TimelineEntry[]; counts: TimelineCounts }> {
  // Asked together: one round trip on PostgreSQL.
  const [decisionRows, issueRows, milestoneRows] = await Promise.all(
    ['decisions', 'issues', 'milestones'].map((table) =>
      db.all<Record<string, never>>(`SELECT * FROM ${table} WHERE task_id = ? ORDER BY id`, [taskId]),
    ),
  );
  const decisions = decisionRows.map((r): TimelineEntry => ({
    kind: 'decision',
    id: r.id,
    taskId: r.task_id,
    category: r.category,
    question: r.question,
    options: fromJson<string[]>(r.options, []),
    chosen: r.chosen,
    reasoning: r.reasoning,
    tradeOffs: r.trade_offs,
    createdAt: r.created_at,
  }));
  const issues = issueRows.map((r): TimelineEntry => ({
    kind: 'issue',
    id: r.id,
    taskId: r.task_id,
    type: r.type,
    description: r.description,
    resolution: r.resolution,
    requiresHumanReview: r.requires_human_review === 1,
    createdAt: r.created_at,
  }));
  const milestones = milestoneRows.map((r): TimelineEntry => ({
    kind: 'milestone',
    id: r.id,
    taskId: r.task_id,
    message: r.message,
    progress: r.progress,
    metadata: fromJson<Record<string, unknown> | null>(r.metadata, null),
    createdAt: r.created_at,
  }));
  // Stable: by time, then by kind order within the same instant.
  return {
    entries: [...decisions, ...issues, ...milestones].sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    counts: { decisions: decisions.length, issues: issues.length, milestones: milestones.length },
  };
}
