import type { LedgerEngine } from '../ports';
import type { Task } from './taskModel';
import { toTask } from './taskRepo';
import type { TaskRow } from './taskRepo';
import { countWorkflows, listWorkflows } from '../workflows/workflowRepo';
import type { WorkflowSummary } from '../workflows/workflowRepo';

/** A task as a tree shows it: the task and how many sub-tasks hang under it. */
export interface TreeTask {
  task: Task;
  childCount: number;
}

export interface TaskTreeRoots {
  /** Most recently active first. */
  workflows: WorkflowSummary[];
  totalWorkflows: number;
  /** Top-level tasks that belong to no workflow (created with task_create, not yet started). */
  looseTasks: number;
}

const withChildCount = 'SELECT t.*, (SELECT COUNT(*) FROM tasks c WHERE c.parent_id = t.id) AS child_count FROM tasks t';

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
      looseTasks: (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM tasks WHERE workflow_id IS NULL AND parent_id IS NULL'))?.n ?? 0,
    }));
  }

  /** Top-level tasks of a workflow (null: of no workflow), in start order. */
  topTasks(workflowId: number | null, limit = 500): Promise<TreeTask[]> {
    return this.db.read(async (db) => {
      const rows =
        workflowId === null
          ? await db.all<TaskRow & { child_count: number }>(`${withChildCount} WHERE t.workflow_id IS NULL AND t.parent_id IS NULL ORDER BY t.id LIMIT ?`, [limit])
          : // A sub-task whose parent sits in another workflow still shows, at the top of its own.
            await db.all<TaskRow & { child_count: number }>(
              `${withChildCount} WHERE t.workflow_id = ? AND (t.parent_id IS NULL OR NOT EXISTS (SELECT 1 FROM tasks p WHERE p.id = t.parent_id AND p.workflow_id = t.workflow_id)) ORDER BY t.id LIMIT ?`,
              [workflowId, limit],
            );
      return rows.map((r) => ({ task: toTask(r), childCount: r.child_count }));
    });
  }

  subTasks(parentId: number): Promise<TreeTask[]> {
    return this.db.read(async (db) =>
      (await db.all<TaskRow & { child_count: number }>(`${withChildCount} WHERE t.parent_id = ? ORDER BY t.id`, [parentId])).map((r) => ({ task: toTask(r), childCount: r.child_count })),
    );
  }

  /** Running tasks across the ledger, most recently updated first (status bar). */
  running(): Promise<Task[]> {
    return this.db.read(async (db) => (await db.all<TaskRow>("SELECT * FROM tasks WHERE status = 'in_progress' ORDER BY updated_at DESC, id DESC")).map(toTask));
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
