import type { LedgerEngine } from '../ports/store';
import type { Task } from './taskModel';
import { toTask } from './taskRepo';
import type { TaskRow } from './taskRepo';
import { countWorkflows, listWorkflows } from '../workflows/workflowRepo';
import type { WorkflowSummary } from '../workflows/workflowRepo';

/** A task as a tree shows it: the task and how many sub-tasks hang under it. */
export interface TreeTask {
  task: Task;
  childCount: number;
  /** A person reviewed the task's completion (Board's Approve/Dismiss, `agent-ledger task review`): its review request is answered. */
  completionReviewed: boolean;
}

type TreeRow = TaskRow & { child_count: number; completion_reviewed: number | string };

function treeTask(r: TreeRow): TreeTask {
  return { task: toTask(r), childCount: Number(r.child_count), completionReviewed: Number(r.completion_reviewed) > 0 };
}

export interface TaskTreeRoots {
  /** Most recently active first. */
  workflows: WorkflowSummary[];
  totalWorkflows: number;
  /** Top-level tasks that belong to no workflow (created with task_create, not yet started). */
  looseTasks: number;
}

// `completion_reviewed`: a person answered the completion's review request (a review of that very completion).
const treeColumns =
  'SELECT t.*, (SELECT COUNT(*) FROM tasks c WHERE c.parent_id = t.id) AS child_count, ' +
  '(SELECT COUNT(*) FROM task_reviews r WHERE r.task_id = t.id AND r.completed_at = t.completed_at) AS completion_reviewed FROM tasks t';

/**
 * The read side of the Tasks tree: workflows → tasks → sub-tasks, one level per call so a tree
 * only reads what it expands. Each call is one read of the store (which catches up first).
 */
export class TaskTreeQueries {
  constructor(private readonly db: LedgerEngine) {}

  roots(limit = 100): Promise<TaskTreeRoots> {
    return this.db.read(async (db) => ({
      workflows: await listWorkflows(db, limit, 0),
      totalWorkflows: await countWorkflows(db),
      looseTasks:
        (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM tasks WHERE workflow_id IS NULL AND parent_id IS NULL'))
          ?.n ?? 0,
    }));
  }

  /** Top-level tasks of a workflow (null: of no workflow), in start order. */
  topTasks(workflowId: number | null, limit = 500): Promise<TreeTask[]> {
    return this.db.read(async (db) => {
      const rows =
        workflowId === null
          ? await db.all<TreeRow>(
              `${treeColumns} WHERE t.workflow_id IS NULL AND t.parent_id IS NULL ORDER BY t.id LIMIT ?`,
              [limit],
            )
          : // A sub-task whose parent sits in another workflow still shows, at the top of its own.
            await db.all<TreeRow>(
              `${treeColumns} WHERE t.workflow_id = ? AND (t.parent_id IS NULL OR NOT EXISTS (SELECT 1 FROM tasks p WHERE p.id = t.parent_id AND p.workflow_id = t.workflow_id)) ORDER BY t.id LIMIT ?`,
              [workflowId, limit],
            );
      return rows.map(treeTask);
    });
  }

  subTasks(parentId: number): Promise<TreeTask[]> {
    return this.db.read(async (db) =>
      (await db.all<TreeRow>(`${treeColumns} WHERE t.parent_id = ? ORDER BY t.id`, [parentId])).map(treeTask),
    );
  }

  /** Running tasks across the ledger, most recently updated first (status bar). */
  running(): Promise<Task[]> {
    return this.db.read(async (db) =>
      (await db.all<TaskRow>("SELECT * FROM tasks WHERE status = 'in_progress' ORDER BY updated_at DESC, id DESC")).map(
        toTask,
      ),
    );
  }
}

/**
 * The tasks of one workflow in tree order (a parent before its sub-tasks, siblings by id) with
 * their depth; a task whose parent is not among them is shown at the top.
 */
export function depthFirst(tasks: readonly Task[]): { task: Task; depth: number }[] {
  const ids = new Set(tasks.map((t) => t.id));
  const byParent = new Map<number | null, Task[]>();
  for (const t of tasks) {
    const parent = t.parentId !== null && ids.has(t.parentId) ? t.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), t]);
  }
  const out: { task: Task; depth: number }[] = [];
  const walk = (parent: number | null, depth: number): void => {
    for (const task of byParent.get(parent) ?? []) {
      out.push({ task, depth });
      walk(task.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
