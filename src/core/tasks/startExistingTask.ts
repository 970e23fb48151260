import type { LedgerDb, SqlReader, WorkspaceTruth } from '../ports';
import { LedgerError, stateError } from '../errors';
import { notFound, parseId, taskKey, workflowKey } from '../ids';
import type { Clock } from '../time';
import { iso } from '../time';
import { appendEvent } from '../events/eventLog';
import { getTask, updateTask } from './taskRepo';
import { touchWorkflow } from '../workflows/workflowRepo';
import { keepSnapshotQuietly } from '../sessions/sessionTask';
import type { StartTaskResult } from './trackingResults';

export interface StartExistingInput {
  taskId: number;
  workflowId: number;
  parentId: number | null;
  name: string;
  goal: string;
  areas: string[];
}

/**
 * start_task with `task_id`: starts a task created by task_create (status open) the way
 * start_task starts a new one — a snapshot of the workspace, status in_progress — inside the
 * given workflow. `checkStartable` is start_task's own check of the workflow and parent.
 */
export async function startExistingTask(
  db: LedgerDb,
  truth: () => Promise<WorkspaceTruth>,
  clock: Clock,
  input: StartExistingInput,
  checkStartable: (db: SqlReader, workflowId: number, parentId: number | null) => void,
): Promise<StartTaskResult> {
  const check = (r: SqlReader) => {
    checkStartable(r, input.workflowId, input.parentId);
    const task = getTask(r, input.taskId);
    if (!task) throw notFound('task', input.taskId);
    if (task.status !== 'open') {
      throw stateError(`${taskKey(task.id)} is already ${task.status}; start_task with task_id starts an open task (log on a running one directly with its task_id)`, {
        taskId: taskKey(task.id),
        status: task.status,
      });
    }
    if (task.workflowId !== null && task.workflowId !== input.workflowId) {
      throw new LedgerError('ValidationError', `${taskKey(task.id)} belongs to ${workflowKey(task.workflowId)}, not ${workflowKey(input.workflowId)}; pass its workflow_id`, { taskId: taskKey(task.id) });
    }
    if (input.parentId === task.id) throw new LedgerError('ValidationError', `${taskKey(task.id)} cannot be its own parent task`, { taskId: taskKey(task.id) });
    return task;
  };
  db.read(check);
  const workspace = await truth();
  const snapshot = await workspace.snapshot(`${workflowKey(input.workflowId)}: ${input.name}`);
  const now = iso(clock.now());
  await db.write((tx) => {
    check(tx);
    updateTask(
      tx,
      input.taskId,
      {
        workflowId: input.workflowId,
        ...(input.parentId !== null ? { parentId: input.parentId } : {}),
        title: input.name,
        goal: input.goal,
        areas: input.areas,
        status: 'in_progress',
        snapshot,
        startedAt: now,
        worktree: null,
      },
      now,
    );
    touchWorkflow(tx, input.workflowId, now);
    appendEvent(tx, { ts: now, kind: 'task.started', workflowId: input.workflowId, taskId: input.taskId, payload: { name: input.name, parentId: input.parentId, snapshot: snapshot.id, existing: true } });
  });
  await keepSnapshotQuietly(workspace, snapshot, input.taskId);
  return {
    task_id: taskKey(input.taskId),
    snapshot_id: snapshot.id,
    snapshot_type: snapshot.type,
    started_at: now,
    workflow_id: workflowKey(input.workflowId),
    parent_task_id: input.parentId === null ? null : taskKey(input.parentId),
  };
}

/** The task id start_task was given, or null for "create a new task". */
export function existingTaskId(ref: string | number | null | undefined): number | null {
  return ref === undefined || ref === null || ref === '' ? null : parseId('task', ref);
}
