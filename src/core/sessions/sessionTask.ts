import type { AsyncSqlReader, AsyncSqlWriter } from '../ports/store';
import type { Snapshot } from '../ports/workspaceTruth';
import type { Task, WriteScope } from '../tasks/taskModel';
import { LedgerError, stateError } from '../errors';
import { notFound, taskKey } from '../ids';
import { secondsBetween } from '../time';
import { appendEvent } from '../events/eventLog';
import { getTask, updateTask } from '../tasks/taskRepo';
import type { TaskPatch } from '../tasks/taskRepo';
import type { AgentDefinition } from '../agents/agentModel';
import type { Session, SessionEnd } from './sessionRepo';
import { runningSessions } from './sessionRepo';
import { thisMachine } from '../machine';

/**
 * What a session does to its task. Starting one moves an open (or failed) task to in_progress
 * and, the first time, gives it the snapshot complete_task measures from; ending the last
 * running one settles the task when the outcome says so (merged → done, failure → failed).
 */

/** The task a session may start on: it exists and is neither done nor cancelled. */
export async function requireSessionTask(db: AsyncSqlReader, taskId: number): Promise<Task> {
  const task = await getTask(db, taskId);
  if (!task) throw notFound('task', taskId);
  if (task.status === 'done' || task.status === 'cancelled') {
    throw stateError(
      `${taskKey(taskId)} is ${task.status}; sessions start on open, in-progress or failed tasks (reopen it with task_update status "open" if it was cancelled)`,
      {
        taskId,
        status: task.status,
      },
    );
  }
  return task;
}

/** The task-management contract: one running session per task and agent, unless the caller asks for more. */
export async function requireNoRunningSession(
  db: AsyncSqlReader,
  taskId: number,
  agent: string,
  allowConcurrent: boolean,
): Promise<void> {
  if (allowConcurrent) return;
  const running = (await runningSessions(db, taskId, agent))[0];
  if (running) {
    throw new LedgerError(
      'SessionAlreadyRunning',
      `agent "${agent}" already has session ${running.id} running on ${taskKey(taskId)} (started ${running.startedAt}); end it with session_end, or pass allowConcurrent: true`,
      { sessionId: running.id, taskId, agent },
    );
  }
}

export interface SessionStartEffect {
  sessionId: number;
  agent: AgentDefinition;
  /** A snapshot taken for this start; used only if the task has none yet. */
  snapshot: Snapshot | null;
  /** Workspace-relative worktree the snapshot was taken in (null: the workspace itself). */
  worktree: string | null;
  now: string;
}

/** Inside the write that inserted the session. Returns true when the task took `snapshot`. */
export async function applySessionStart(tx: AsyncSqlWriter, task: Task, e: SessionStartEffect): Promise<boolean> {
  const patch: TaskPatch = { selectedSessionId: e.sessionId, writeScope: mergeWriteScope(task.writeScope, e.agent) };
  const starting = task.status === 'open' || task.status === 'failed';
  if (starting) Object.assign(patch, { status: 'in_progress', result: null, completedAt: null, durationSeconds: null });
  const tookSnapshot = task.snapshot === null && e.snapshot !== null;
  if (tookSnapshot)
    Object.assign(patch, {
      snapshot: e.snapshot,
      startedAt: e.now,
      worktree: e.worktree,
      machineId: thisMachine().id,
      osUser: thisMachine().user,
    });
  await updateTask(tx, task.id, patch, e.now);
  if (starting) {
    await appendEvent(tx, {
      ts: e.now,
      kind: 'task.started',
      workflowId: task.workflowId,
      taskId: task.id,
      payload: {
        name: task.title,
        sessionId: e.sessionId,
        agent: e.agent.name,
        ...(tookSnapshot ? { snapshot: e.snapshot!.id } : {}),
      },
    });
  }
  return tookSnapshot;
}

/** The agent's write scope joins those already recorded on the task (one entry per agent). */
function mergeWriteScope(current: WriteScope[] | null, agent: AgentDefinition): WriteScope[] {
  const mine: WriteScope = { agent: agent.name, write: agent.scope.write, exclude: agent.scope.exclude };
  return [...(current ?? []).filter((s) => s.agent !== agent.name), mine];
}

/** Inside the write that ended `session`: settles the task once no session of it runs. */
export async function applySessionEnd(
  tx: AsyncSqlWriter,
  session: Session,
  end: SessionEnd,
): Promise<Task['status'] | null> {
  const task = await getTask(tx, session.taskId);
  if (!task || task.status !== 'in_progress') return null;
  if ((await runningSessions(tx, task.id)).some((s) => s.id !== session.id)) return null;
  const outcome = end.dodResult === 'merged' ? 'done' : end.status === 'failed' ? 'failed' : null;
  if (!outcome) return null;
  await updateTask(
    tx,
    task.id,
    {
      status: outcome,
      result: outcome === 'done' ? 'success' : 'failed',
      completedAt: end.endedAt,
      durationSeconds: secondsBetween(task.startedAt ?? task.createdAt, new Date(end.endedAt)),
    },
    end.endedAt,
  );
  await appendEvent(tx, {
    ts: end.endedAt,
    kind: 'task.updated',
    workflowId: task.workflowId,
    taskId: task.id,
    payload: { status: outcome, via: 'session_end', sessionId: session.id },
  });
  return outcome;
}
