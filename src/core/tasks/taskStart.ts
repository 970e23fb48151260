import type { AsyncSqlReader, AsyncSqlWriter, LedgerEngine } from '../ports/store';
import type { Snapshot, WorkspaceTruth } from '../ports/workspaceTruth';
import type { Task } from './taskModel';
import { isFinished } from './taskModel';
import { LedgerError, stateError } from '../errors';
import { notFound, parseId, taskKey, workflowKey } from '../ids';
import type { Clock } from '../time';
import { iso } from '../time';
import { appendEvent } from '../events/eventLog';
import { getWorkflow, touchWorkflow } from '../workflows/workflowRepo';
import { getTask, insertTask, updateTask } from './taskRepo';
import { pinSnapshot } from './snapshotPin';
import { thisMachine } from '../machine';
import type { StartGate } from './startGate';
import type { StartTaskInput, StartTaskResult } from './trackingContracts';

/** What start_task is about to do, its ids resolved. */
interface StartPlan {
  workflowId: number;
  parentId: number | null;
  /** An open task (from task_create) to start, or null to create a new one. */
  existingId: number | null;
  name: string;
  goal: string;
  areas: string[];
  /** Start an existing task even though its dependencies are not done. */
  force: boolean;
}

/**
 * start_task: a snapshot of the workspace, then the task in progress inside its workflow — a new
 * task, or (with `task_id`) an open one task_create made. Every refusal is decided before the
 * snapshot and checked again inside the write: another process may have moved first.
 */
export async function startTask(
  db: LedgerEngine,
  truth: () => Promise<WorkspaceTruth>,
  clock: Clock,
  input: StartTaskInput,
  startGate: StartGate,
): Promise<StartTaskResult> {
  const plan: StartPlan = {
    workflowId: parseId('workflow', input.workflow_id),
    parentId:
      input.parent_task_id === undefined || input.parent_task_id === null
        ? null
        : parseId('task', input.parent_task_id),
    existingId: input.task_id === undefined || input.task_id === null ? null : parseId('task', input.task_id),
    name: input.name,
    goal: input.goal,
    areas: (input.areas ?? []).map((a) => a.trim()).filter((a) => a.length > 0),
    force: input.force === true,
  };
  await db.read((r) => checkStartable(r, plan, startGate));
  const workspace = await truth();
  const snapshot = await workspace.snapshot(`${workflowKey(plan.workflowId)}: ${plan.name}`);
  const now = iso(clock.now());
  const id = await db.write(async (tx) => {
    await checkStartable(tx, plan, startGate);
    const taskId =
      plan.existingId === null
        ? await insertStarted(tx, plan, snapshot, now)
        : await startExisting(tx, plan, snapshot, now);
    await touchWorkflow(tx, plan.workflowId, now);
    await appendEvent(tx, {
      ts: now,
      kind: 'task.started',
      workflowId: plan.workflowId,
      taskId,
      payload: {
        name: plan.name,
        parentId: plan.parentId,
        snapshot: snapshot.id,
        ...(plan.existingId === null ? {} : { existing: true }),
      },
    });
    return taskId;
  });
  await pinSnapshot(workspace, snapshot, taskKey(id));
  return {
    task_id: taskKey(id),
    snapshot_id: snapshot.id,
    snapshot_type: snapshot.type,
    started_at: now,
    workflow_id: workflowKey(plan.workflowId),
    parent_task_id: plan.parentId === null ? null : taskKey(plan.parentId),
  };
}

function insertStarted(tx: AsyncSqlWriter, plan: StartPlan, snapshot: Snapshot, now: string): Promise<number> {
  return insertTask(
    tx,
    {
      workflowId: plan.workflowId,
      parentId: plan.parentId,
      title: plan.name,
      goal: plan.goal,
      areas: plan.areas,
      status: 'in_progress',
      snapshot,
      startedAt: now,
    },
    now,
  );
}

async function startExisting(tx: AsyncSqlWriter, plan: StartPlan, snapshot: Snapshot, now: string): Promise<number> {
  const id = plan.existingId as number;
  const machine = thisMachine();
  const patch = {
    workflowId: plan.workflowId,
    title: plan.name,
    goal: plan.goal,
    areas: plan.areas,
    status: 'in_progress' as const,
    snapshot,
    startedAt: now,
    worktree: null,
    machineId: machine.id,
    osUser: machine.user,
  };
  await updateTask(tx, id, plan.parentId === null ? patch : { ...patch, parentId: plan.parentId }, now);
  return id;
}

/** The workflow exists, the parent runs in it, and an existing task is open and belongs there. */
async function checkStartable(db: AsyncSqlReader, plan: StartPlan, startGate: StartGate): Promise<void> {
  const { workflowId, parentId } = plan;
  if (!(await getWorkflow(db, workflowId))) throw notFound('workflow', workflowKey(workflowId));
  if (parentId !== null) {
    const parent = await getTask(db, parentId);
    if (!parent) throw notFound('task', parentId);
    if (parent.workflowId !== workflowId) {
      throw new LedgerError(
        'ValidationError',
        `parent task ${taskKey(parentId)} belongs to ${parent.workflowId === null ? 'no workflow' : workflowKey(parent.workflowId)}, not ${workflowKey(workflowId)}; pass the parent's workflow_id`,
        {
          parentTaskId: taskKey(parentId),
        },
      );
    }
    if (isFinished(parent.status))
      throw stateError(
        `parent task ${taskKey(parentId)} is already ${parent.status}; sub-tasks can only be started under a task that is still running`,
        { parentTaskId: taskKey(parentId) },
      );
  }
  if (plan.existingId !== null) {
    await checkExisting(db, plan);
    // Its plan graph's dependencies first (a person can force it); start_task marks its areas instead of checking scopes.
    await startGate(db, plan.existingId, { force: plan.force, inWorkflow: plan.workflowId });
  }
}

async function checkExisting(db: AsyncSqlReader, plan: StartPlan): Promise<Task> {
  const task = await getTask(db, plan.existingId as number);
  if (!task) throw notFound('task', plan.existingId);
  if (task.status !== 'open') {
    throw stateError(
      `${taskKey(task.id)} is already ${task.status}; start_task with task_id starts an open task (log on a running one directly with its task_id)`,
      {
        taskId: taskKey(task.id),
        status: task.status,
      },
    );
  }
  if (task.workflowId !== null && task.workflowId !== plan.workflowId) {
    throw new LedgerError(
      'ValidationError',
      `${taskKey(task.id)} belongs to ${workflowKey(task.workflowId)}, not ${workflowKey(plan.workflowId)}; pass its workflow_id`,
      { taskId: taskKey(task.id) },
    );
  }
  if (plan.parentId === task.id)
    throw new LedgerError('ValidationError', `${taskKey(task.id)} cannot be its own parent task`, {
      taskId: taskKey(task.id),
    });
  return task;
}
