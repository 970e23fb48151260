import { stateError, validationError } from '../errors';
import { notFound, taskKey } from '../ids';
import { appendEvent } from '../events/eventLog';
import type { AsyncSqlReader, LedgerEngine } from '../ports/store';
import type { Clock } from '../time';
import { iso } from '../time';
import { thisMachine } from '../machine';
import type { TaskGetJson } from './taskContracts';

/** What a task asked a person to review, and what a person already marked reviewed. */
export interface ReviewState {
  /** complete_task's outcome said a person must review. */
  manualReview: { reason: string | null } | null;
  /** The latest issue of the task asking for a person's review (its id and description). */
  reviewIssue: { id: number; description: string } | null;
  /** A person marked the task's review requests reviewed (the ids and completion it covered). */
  review: { issueThrough: number; completedAt: string | null } | null;
  completedAt: string | null;
}

/** What a task's stored outcome (JSON) says about a manual review: asked, with its reason, or null. */
export function manualReviewOf(outcome: string | null): { reason: string | null } | null {
  if (!outcome) return null;
  try {
    const o = JSON.parse(outcome) as { manual_review_needed?: unknown; manual_review_reason?: unknown };
    return o.manual_review_needed === true
      ? { reason: typeof o.manual_review_reason === 'string' ? o.manual_review_reason : null }
      : null;
  } catch {
    return null;
  }
}

/**
 * The review requests a person has not marked reviewed yet: a review covers the issues up to the
 * one it saw last and the completion it saw (a task completed again asks again).
 */
export function openReviewRequests(task: ReviewState): Pick<ReviewState, 'manualReview' | 'reviewIssue'> {
  const r = task.review;
  if (!r) return { manualReview: task.manualReview, reviewIssue: task.reviewIssue };
  return {
    manualReview: task.manualReview && r.completedAt !== task.completedAt ? task.manualReview : null,
    reviewIssue: task.reviewIssue && task.reviewIssue.id > r.issueThrough ? task.reviewIssue : null,
  };
}

/** approved: the person checked the work and it stands; dismissed: the request needs nothing (the card leaves all the same). */
export type ReviewVerdict = 'approved' | 'dismissed';

export interface ReviewInput {
  taskId: number;
  verdict: ReviewVerdict;
  note?: string;
  /** Who reviewed; default: the OS user of this process. */
  by?: string;
}

export interface ReviewRecord {
  taskId: string;
  verdict: ReviewVerdict;
  note: string | null;
  reviewedBy: string;
  reviewedAt: string;
  /** The requests this review answered: the issues' ids, and whether the completion's outcome asked. */
  answered: { issues: number[]; completion: boolean };
}

/** A task's review requests and its latest review, read in one transaction (NotFound for no task). */
async function readReviewState(db: AsyncSqlReader, taskId: number) {
  const task = await db.get<{
    id: number;
    workflow_id: number | null;
    status: string;
    outcome: string | null;
    completed_at: string | null;
  }>('SELECT id, workflow_id, status, outcome, completed_at FROM tasks WHERE id = ?', [taskId]);
  if (!task) throw notFound('task', taskId);
  const issues = (
    await db.all<{ id: number; description: string }>(
      'SELECT id, description FROM issues WHERE task_id = ? AND requires_human_review = 1 ORDER BY id',
      [taskId],
    )
  ).map((r) => ({ id: Number(r.id), description: r.description }));
  const last = await db.get<{ issue_through: number; completed_at: string | null }>(
    'SELECT issue_through, completed_at FROM task_reviews WHERE task_id = ? ORDER BY id DESC LIMIT 1',
    [taskId],
  );
  const review = last ? { issueThrough: Number(last.issue_through), completedAt: last.completed_at } : null;
  const manualReview = task.status === 'done' ? manualReviewOf(task.outcome) : null;
  const open = openReviewRequests({
    manualReview,
    reviewIssue: issues.at(-1) ?? null,
    review,
    completedAt: task.completed_at,
  });
  return { task, issues, review, open };
}

type ReviewRow = { verdict: 'approved' | 'dismissed'; note: string | null; reviewed_by: string; reviewed_at: string };

/**
 * A person's latest review of the task's current completion (a review records the `completed_at`
 * it saw; completing again asks again), as the Tasks tree's `completion_reviewed` counts it.
 */
export async function completionReviewOf(db: AsyncSqlReader, id: number): Promise<TaskGetJson['completionReview']> {
  const r = await db.get<ReviewRow>(
    'SELECT r.verdict, r.note, r.reviewed_by, r.reviewed_at FROM task_reviews r JOIN tasks t ON t.id = r.task_id AND t.completed_at = r.completed_at WHERE r.task_id = ? ORDER BY r.id DESC LIMIT 1',
    [id],
  );
  return r ? { verdict: r.verdict, note: r.note, reviewedBy: r.reviewed_by, reviewedAt: r.reviewed_at } : null;
}

/**
 * A person answers an agent's review requests: the issues logged with `requires_human_review` and
 * a completion whose outcome says `manual_review_needed`. The review covers the requests that
 * exist now, so the task leaves the Board's "needs a person" column; a later request asks again.
 * Nothing to answer is refused (InvalidStatus), nothing written.
 */
export class TaskReviewService {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly clock: Clock,
  ) {}

  /** What of the task waits for a person's answer now (both null: nothing to review). */
  async pending(taskId: number): Promise<Pick<ReviewState, 'manualReview' | 'reviewIssue'>> {
    return (await this.engine.read((db) => readReviewState(db, taskId))).open;
  }

  /** A person's answer to the task's current completion, the latest (null: none). */
  answered(taskId: number): Promise<TaskGetJson['completionReview']> {
    return this.engine.read((db) => completionReviewOf(db, taskId));
  }

  async review(input: ReviewInput): Promise<ReviewRecord> {
    if (input.verdict !== 'approved' && input.verdict !== 'dismissed')
      throw validationError(`verdict must be approved or dismissed, not ${String(input.verdict)}`);
    const note = input.note?.trim() ? input.note.trim().slice(0, 5_000) : null;
    const by = input.by?.trim() || thisMachine().user;
    return this.engine.write(async (tx) => {
      const { task, issues, review, open } = await readReviewState(tx, input.taskId);
      const answeredIssues = issues.filter((i) => i.id > (review?.issueThrough ?? 0)).map((i) => i.id);
      if (!open.manualReview && !open.reviewIssue) {
        throw stateError(`${taskKey(input.taskId)} has no review request waiting for a person`, {
          task_id: taskKey(input.taskId),
          reason: 'nothingToReview',
        });
      }
      const now = iso(this.clock.now());
      const issueThrough = issues.at(-1)?.id ?? 0;
      await tx.insert(
        'INSERT INTO task_reviews (task_id, verdict, note, issue_through, completed_at, reviewed_by, reviewed_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
        [input.taskId, input.verdict, note, issueThrough, task.completed_at, by, now],
      );
      await tx.run('UPDATE tasks SET updated_at = ? WHERE id = ?', [now, input.taskId]);
      const answered = { issues: open.reviewIssue ? answeredIssues : [], completion: open.manualReview !== null };
      await appendEvent(tx, {
        ts: now,
        kind: 'task.reviewed',
        workflowId: task.workflow_id === null ? null : Number(task.workflow_id),
        taskId: input.taskId,
        payload: { verdict: input.verdict, note, by, answered },
      });
      return { taskId: taskKey(input.taskId), verdict: input.verdict, note, reviewedBy: by, reviewedAt: now, answered };
    });
  }
}
