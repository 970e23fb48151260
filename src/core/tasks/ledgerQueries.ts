import type { LedgerEngine } from '../ports/store';
import type { Task, TaskStatus, TimelineEntry } from './taskModel';
import type { Workflow } from '../workflows/workflowModel';
import { notFound, parseId, workflowKey } from '../ids';
import { countWorkflows, getWorkflow, listWorkflows } from '../workflows/workflowRepo';
import type { WorkflowSummary } from '../workflows/workflowRepo';
import { childTasks, getTask, tasksOfWorkflow, toTask } from './taskRepo';
import type { TaskRow } from './taskRepo';
import { timelineWithCounts } from './timelineRepo';
import type { TimelineCounts } from './timelineRepo';

export interface TaskDetail {
  task: Task;
  timeline: TimelineEntry[];
  children: Task[];
  counts: TimelineCounts;
}

export interface TaskFilter {
  status?: TaskStatus;
  workflow?: string | number;
  limit?: number;
  offset?: number;
}

/** Read side of the ledger, shared by the CLI, the resources and the editor's views. */
export class LedgerQueries {
  constructor(private readonly db: LedgerEngine) {}

  listWorkflows(limit = 50, offset = 0): Promise<{ workflows: WorkflowSummary[]; total: number }> {
    return this.db.read(async (db) => ({
      workflows: await listWorkflows(db, limit, offset),
      total: await countWorkflows(db),
    }));
  }

  workflow(ref: string | number): Promise<{ workflow: Workflow; tasks: Task[] }> {
    const id = parseId('workflow', ref);
    return this.db.read(async (db) => {
      const workflow = await getWorkflow(db, id);
      if (!workflow) throw notFound('workflow', workflowKey(id));
      return { workflow, tasks: await tasksOfWorkflow(db, id) };
    });
  }

  task(ref: string | number): Promise<TaskDetail> {
    const id = parseId('task', ref);
    return this.db.read(async (db) => {
      const task = await getTask(db, id);
      if (!task) throw notFound('task', id);
      const { entries, counts } = await timelineWithCounts(db, id);
      return { task, timeline: entries, children: await childTasks(db, id), counts };
    });
  }

  listTasks(filter: TaskFilter = {}): Promise<{ tasks: Task[]; total: number }> {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (filter.status) {
      where.push('status = ?');
      params.push(filter.status);
    }
    if (filter.workflow !== undefined) {
      where.push('workflow_id = ?');
      params.push(parseId('workflow', filter.workflow));
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    return this.db.read(async (db) => {
      const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM tasks ${clause}`, params))?.n ?? 0;
      const rows = await db.all<TaskRow>(`SELECT * FROM tasks ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`, [
        ...params,
        filter.limit ?? 50,
        filter.offset ?? 0,
      ]);
      return { tasks: rows.map(toTask), total };
    });
  }

  runningTasks(): Promise<Task[]> {
    return this.db.read(async (db) =>
      (await db.all<TaskRow>("SELECT * FROM tasks WHERE status = 'in_progress' ORDER BY updated_at DESC")).map(toTask),
    );
  }
}
