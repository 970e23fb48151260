import type { LedgerEngine } from '../ports/store';
import type { Task } from './taskModel';
import { LedgerError, stateError } from '../errors';
import { notFound, parseId, taskKey, workflowKey } from '../ids';
import { getWorkflow, touchWorkflow } from '../workflows/workflowRepo';
import type { Clock } from '../time';
import { iso } from '../time';
import { appendEvent } from '../events/eventLog';
import { childTasks, getTask, insertTask, updateTask } from './taskRepo';
import { fromJson } from '../json';
import type { TaskPatch, TaskRow } from './taskRepo';
import { timelineWithCounts } from './timelineRepo';
import { taskDetailView, taskView } from './taskViews';
import type {
  TaskCreateInput,
  TaskJson,
  TaskListInput,
  TaskListResult,
  TaskRowView,
  TaskUpdateInput,
} from './taskContracts';
import { readTaskAnswer } from './taskAnswer';
import type { TaskLifecycle } from './taskLifecycle';
import type { TaskAnswer } from './taskAnswer';

const rowColumns = 'id, title, status, priority, type, labels, assignee, assignee_type';
type RowColumns = Pick<
  TaskRow,
  'id' | 'title' | 'status' | 'priority' | 'type' | 'labels' | 'assignee' | 'assignee_type'
>;

function rowFromColumns(r: RowColumns): TaskRowView {
  return {
    id: r.id,
    title: r.title,
    status: r.status as Task['status'],
    priority: r.priority as Task['priority'],
    type: r.type as Task['type'],
    labels: fromJson<string[]>(r.labels, []),
    assignee: r.assignee,
    assigneeType: r.assignee_type as Task['assigneeType'],
  };
}

/** The task-management contract's task tools over the one `tasks` table the tracking tools use too. */
export class TaskService {
  constructor(
    private readonly db: LedgerEngine,
    private readonly clock: Clock,
    /** Told when a cancel ends a task (taskLifecycle.ts). */
    private readonly lifecycle?: TaskLifecycle,
  ) {}

  list(input: TaskListInput): Promise<TaskListResult> {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (input.status) {
      where.push('status = ?');
      params.push(input.status);
    }
    if (input.assignee) {
      where.push('assignee = ?');
      params.push(input.assignee);
    }
    if (input.workflowId !== undefined) {
      where.push('workflow_id = ?');
      params.push(parseId('workflow', input.workflowId));
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    return this.db.read(async (db) => {
      // Asked together (one round trip on PostgreSQL). Only the row's columns: reading whole task rows (outcome, files changed…) for a compact list costs 4×.
      const [count, rows] = await Promise.all([
        db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM tasks ${clause}`, params),
        db.all<RowColumns>(`SELECT ${rowColumns} FROM tasks ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`, [
          ...params,
          input.limit,
          input.offset,
        ]),
      ]);
      const total = count?.n ?? 0;
      const next = input.offset + rows.length;
      return { tasks: rows.map(rowFromColumns), total, nextOffset: next < total ? next : null };
    });
  }

  /** The task with its timeline and sub-tasks: the same JSON as the task://{id} resource. */
  get(ref: string | number): Promise<TaskJson> {
    const id = parseId('task', ref);
    return this.db.read(async (db) => {
      const task = await getTask(db, id);
      if (!task) throw notFound('task', id);
      const { entries, counts } = await timelineWithCounts(db, id);
      return taskDetailView(task, entries, await childTasks(db, id), counts) as TaskJson;
    });
  }

  /** task_get's whole answer (with dependencies and cost) in one read: `readTaskAnswer`. */
  answer(ref: string | number): Promise<TaskAnswer> {
    const id = parseId('task', ref);
    return this.db.read((db) => readTaskAnswer(db, id));
  }

  async create(input: TaskCreateInput): Promise<TaskJson> {
    const now = iso(this.clock.now());
    const workflowId = input.workflowId === undefined ? null : parseId('workflow', input.workflowId);
    const task = await this.db.write(async (tx) => {
      // A planned task of a workflow: it waits there, open, until someone starts or queues it.
      if (workflowId !== null && !(await getWorkflow(tx, workflowId)))
        throw notFound('workflow', workflowKey(workflowId));
      const id = await insertTask(
        tx,
        {
          title: input.title,
          description: emptyToNull(input.description),
          status: 'open',
          priority: input.priority,
          type: input.type,
          labels: input.labels ?? [],
          assignee: input.assignee ?? null,
          assigneeType: input.assigneeType ?? null,
        },
        now,
      );
      if (workflowId !== null) {
        await updateTask(tx, id, { workflowId }, now);
        await touchWorkflow(tx, workflowId, now);
      }
      await appendEvent(tx, {
        ts: now,
        kind: 'task.created',
        workflowId,
        taskId: id,
        payload: { title: input.title, priority: input.priority, type: input.type },
      });
      return (await getTask(tx, id))!;
    });
    return taskView(task) as TaskJson;
  }

  async update(input: TaskUpdateInput): Promise<TaskJson> {
    const id = parseId('task', input.id);
    const patch: TaskPatch = {};
    if (input.title !== undefined) patch.title = input.title;
    if (input.description !== undefined) patch.description = emptyToNull(input.description);
    if (input.priority !== undefined) patch.priority = input.priority;
    if (input.type !== undefined) patch.type = input.type;
    if (input.assignee !== undefined) patch.assignee = emptyToNull(input.assignee);
    if (input.assigneeType !== undefined) patch.assigneeType = input.assigneeType;
    if (input.labels !== undefined) patch.labels = input.labels;
    if (Object.keys(patch).length === 0 && input.status === undefined) {
      throw new LedgerError(
        'ValidationError',
        'nothing to update: pass at least one of title, description, priority, type, assignee, assigneeType, labels, status',
        { taskId: id },
      );
    }
    const now = iso(this.clock.now());
    let previous: Task['status'] | null = null;
    const task = await this.db.write(async (tx) => {
      const current = await getTask(tx, id);
      if (!current) throw notFound('task', id);
      previous = current.status;
      if (input.status !== undefined && input.status !== current.status)
        Object.assign(patch, statusChange(current, input.status));
      await updateTask(tx, id, patch, now);
      await appendEvent(tx, {
        ts: now,
        kind: 'task.updated',
        workflowId: current.workflowId,
        taskId: id,
        payload: { fields: Object.keys(patch), ...(patch.status ? { status: patch.status } : {}) },
      });
      return (await getTask(tx, id))!;
    });
    await this.lifecycle?.changed(id, previous, task.status);
    return taskView(task) as TaskJson;
  }
}

/** The status changes a person may make by hand: cancel, or reopen what was cancelled or failed. */
function statusChange(task: Task, to: 'open' | 'cancelled'): TaskPatch {
  if (to === 'cancelled') {
    if (task.status === 'done')
      throw stateError(`${taskKey(task.id)} is already done; a finished task cannot be cancelled`, {
        taskId: task.id,
        status: task.status,
      });
    return { status: 'cancelled' };
  }
  if (task.status === 'in_progress')
    throw stateError(
      `${taskKey(task.id)} is in progress; end its sessions (session_end) or complete it (complete_task) instead of reopening it`,
      { taskId: task.id, status: task.status },
    );
  if (task.status === 'done')
    throw stateError(`${taskKey(task.id)} is done; create a new task for further work`, {
      taskId: task.id,
      status: task.status,
    });
  return { status: 'open', result: null, completedAt: null };
}

function emptyToNull(text: string | undefined): string | null {
  return text === undefined || text.trim() === '' ? null : text;
}
