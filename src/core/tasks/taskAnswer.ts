import type { AsyncSqlReader } from '../ports/store';
import { notFound } from '../ids';
import { dependenciesOf } from './taskDependencies';
import type { TaskDependencies } from './taskDependencies';
import { taskCostOf } from '../costs/costRollup';
import { childTasks, getTask } from './taskRepo';
import { timelineWithCounts } from './timelineRepo';
import { taskDetailView } from './taskViews';
import { recordedSharedFiles } from './taskFiles';
import { completionReviewOf } from './taskReviews';
import type { SharedFile } from './taskFiles';
import type { TaskDetailView } from './taskViews';
import type { TaskGetJson } from './taskContracts';
import { SAVED_CONTEXTS_SHOWN } from './taskContracts';
import { fromJson } from '../json';

/** A task outside any workflow depends on nothing. */
const noDependencies = (): TaskDependencies => ({ graph_id: null, depends_on: [], dependents: [], ready: true });

/**
 * What `task_get`, `task://{id}` and `agent-ledger task get` answer — the task, its timeline and
 * sub-tasks, its dependencies in its workflow's plan graph, the cost of its runs and the contexts its
 * agents saved — in one read
 * (one snapshot). The parts that need only the id are asked together, so PostgreSQL sends them in
 * one round trip; the task row and its sub-tasks decide the rest (its workflow's graph, the
 * sub-tasks' cost): a task outside a workflow without sub-tasks is one round trip. Ten
 * statements for a task outside a workflow: the task and its timeline, the counts from the
 * timeline, the cost and its per-agent split from one statement, a person's review of its
 * completion (so every face says "reviewed" from the same read), the saved contexts' count and
 * newest ones, and how a person landed it.
 */
export async function readTaskAnswer(db: AsyncSqlReader, id: number): Promise<TaskAnswer> {
  const row = getTask(db, id);
  const subTasks = childTasks(db, id);
  const [task, { entries, counts }, children, cost, dependencies, completionReview, contexts, landing] =
    await Promise.all([
      row,
      timelineWithCounts(db, id),
      subTasks,
      taskCostOf(
        db,
        id,
        subTasks.then((c) => c.length > 0),
      ),
      // Asked as soon as the task row says which workflow's graph to read.
      row.then((t) => (!t || t.workflowId === null ? noDependencies() : dependenciesOf(db, id, t.workflowId))),
      completionReviewOf(db, id),
      savedContextsOf(db, id),
      landingOf(db, id),
    ]);
  if (!task) throw notFound('task', id);
  const alsoChangedBy = await recordedSharedFiles(db, { ...task, files: task.filesChanged });
  return {
    ...taskDetailView(task, entries, children, counts),
    dependencies,
    cost,
    completionReview,
    alsoChangedBy,
    contexts,
    landing,
  };
}

/** How a person landed the task (`task land` records a `task.landed` event), or null. */
async function landingOf(db: AsyncSqlReader, id: number): Promise<TaskGetJson['landing']> {
  const row = await db.get<{ ts: string; payload: string }>(
    "SELECT ts, payload FROM events WHERE task_id = ? AND kind = 'task.landed' ORDER BY seq DESC LIMIT 1",
    [id],
  );
  if (!row) return null;
  const p = fromJson<Record<string, unknown>>(row.payload, {});
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  return {
    onto: text(p.onto),
    branch: text(p.branch),
    method: (text(p.method) || 'merge') as NonNullable<TaskGetJson['landing']>['method'],
    by: text(p.by),
    at: row.ts,
    commit: text(p.to),
    pullRequest: typeof p.pullRequest === 'string' ? p.pullRequest : null,
  };
}

/** task_get's answer as `readTaskAnswer` builds it: typed for the faces that render it (the CLI's `task get`). */
export type TaskAnswer = TaskDetailView &
  Pick<TaskGetJson, 'cost' | 'completionReview' | 'contexts' | 'landing'> & {
    dependencies: TaskDependencies;
    alsoChangedBy: SharedFile[];
  };

type ContextRow = {
  agent: string | null;
  progress: string | null;
  findings: string | null;
  blockers: string | null;
  next_steps: string | null;
  created_at: string;
};

/** The contexts agents saved about the task: how many, and the newest few (asked together: one round trip). */
async function savedContextsOf(db: AsyncSqlReader, id: number): Promise<TaskGetJson['contexts']> {
  const [count, rows] = await Promise.all([
    db.get<{ n: number }>('SELECT COUNT(*) AS n FROM task_contexts WHERE task_id = ?', [id]),
    db.all<ContextRow>(
      'SELECT agent, progress, findings, blockers, next_steps, created_at FROM task_contexts WHERE task_id = ? ORDER BY id DESC LIMIT ?',
      [id, SAVED_CONTEXTS_SHOWN],
    ),
  ]);
  return {
    total: Number(count?.n ?? 0),
    newest: rows.map((r) => ({
      agent: r.agent,
      progress: r.progress,
      findings: r.findings,
      blockers: r.blockers,
      nextSteps: r.next_steps,
      savedAt: r.created_at,
    })),
  };
}
