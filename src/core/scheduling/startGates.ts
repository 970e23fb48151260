/**
 * The two gates a task passes before anyone starts it (issues 11 and 12): its dependencies are
 * done, and what it will write does not overlap what a task someone is working on writes.
 * `start_task`, `worker_command`, `get_my_task` and the runner all ask here, each inside the
 * transaction that starts the task, so two processes racing for overlapping tasks start one.
 *
 * "Someone is working on it" means: a session of it runs (worker_command, session_start), a run
 * of it is open (the runner, get_my_task), or it was started with start_task and is in progress
 * (a task that never had a session, and is not a project task waiting for its agent's runner).
 * A task whose sessions all ended, or an in-progress task assigned to a project's agent that no
 * runner or agent has picked up yet, is waiting, not working: counting it would let two waiting
 * tasks with overlapping scopes hold each other forever.
 *
 * Only declared scopes are compared: a task's areas, and agents' write scopes narrower than the
 * whole workspace. A write scope of everything (`**`, the built-in agents' default) says nothing
 * about where a task writes; counting it would serialize every task of every default agent.
 */
import type { AsyncSqlReader } from '../ports/store';
import type { LedgerError } from '../errors';
import { stateError } from '../errors';
import { taskKey } from '../ids';
import type { TaskDependency } from '../tasks/taskDependencies';
import { dependenciesOf } from '../tasks/taskDependencies';
import type { CnpConflict } from './contractNet/contractNet';
import { conflictsOf } from './contractNet/contractNet';
import type { CnpAgent, CnpCall, RunningTask } from './contractNet/contractNetModel';
import { finishedStatuses, taskWriteScope } from './contractNet/contractNetStore';

/** What overrides a gate: `force` starts a task whose dependencies are not done, `allowOverlap` one whose scope overlaps. */
export interface GateOverrides {
  force?: boolean;
  allowOverlap?: boolean;
}

/** Why a task is not started now. */
export interface GateHold {
  reason: 'dependencies' | 'conflict';
  /** One line a person reads: which tasks hold it. */
  detail: string;
  /** The node ids of the dependencies not done (`task-3`), for `dependencies`. */
  blockedBy: string[];
  /** The running tasks it would collide with, for `conflict`. */
  conflicts: CnpConflict[];
}

/** The dependencies of a task that are not done yet (empty when it is ready). */
export async function unmetDependencies(
  db: AsyncSqlReader,
  taskId: number,
  inWorkflow?: number,
): Promise<TaskDependency[]> {
  return (await dependenciesOf(db, taskId, inWorkflow)).depends_on.filter((d) => !d.done);
}

/** Patterns that mean "anywhere in the workspace": not a declared scope (see the file's comment). */
const everywhere = new Set(['**', '**/*', '.', './', './**', './**/*']);

/** The declared part of a write scope. */
export function declaredScope(scope: readonly string[]): string[] {
  return scope.filter((p) => !everywhere.has(p.trim()));
}

/**
 * Where a task declares it writes: its agents' declared write scopes, else its areas. An agent
 * whose scope is the whole workspace (the built-in `coder`) declares nothing, so the task's areas
 * still speak for it: before, the moment such a session recorded its scope on the task, the task
 * stopped counting, and a second process could start an overlapping task beside it.
 */
function declaredTaskScope(row: { areas: string; write_scope: string | null }): string[] {
  const own = declaredScope(taskWriteScope(row));
  return own.length > 0 ? own : declaredScope(JSON.parse(row.areas) as string[]);
}

interface WorkRow {
  id: number;
  assignee: string | null;
  status: string;
  areas: string;
  write_scope: string | null;
  project_id: number | null;
  selected_session_id: number | null;
  working: number | boolean | string;
}

/** The tasks someone is working on now, with what each writes (see the file's comment). */
export async function workingTasks(db: AsyncSqlReader): Promise<RunningTask[]> {
  const rows = await db.all<WorkRow>(
    `SELECT t.id, t.assignee, t.status, t.areas, t.write_scope, t.project_id, t.selected_session_id,
            CASE WHEN EXISTS (SELECT 1 FROM sessions s WHERE s.task_id = t.id AND s.status = 'running')
                   OR EXISTS (SELECT 1 FROM execution_logs e WHERE e.task_id = t.id AND e.status = 'running') THEN 1 ELSE 0 END AS working
       FROM tasks t
      WHERE t.status NOT IN ${finishedStatuses}
        AND (t.status = 'in_progress'
             OR EXISTS (SELECT 1 FROM sessions s WHERE s.task_id = t.id AND s.status = 'running')
             OR EXISTS (SELECT 1 FROM execution_logs e WHERE e.task_id = t.id AND e.status = 'running'))`,
  );
  const out: RunningTask[] = [];
  for (const r of rows) {
    const working = Number(r.working) === 1;
    const trackedByStartTask =
      r.status === 'in_progress' && r.selected_session_id === null && !(r.project_id !== null && r.assignee !== null);
    if (!working && !trackedByStartTask) continue;
    out.push({ taskId: taskKey(Number(r.id)), agentId: r.assignee, writeScope: declaredTaskScope(r) });
  }
  return out;
}

/**
 * The running tasks whose write scope may overlap what `taskId` will write: its own scope
 * (write scopes recorded by sessions, else its areas), else `fallbackScope` (the write scope of
 * the agent about to take it).
 */
export async function scopeConflicts(
  db: AsyncSqlReader,
  taskId: number,
  fallbackScope: readonly string[] = [],
): Promise<{ writeScope: string[]; conflicts: CnpConflict[] }> {
  const row = await db.get<{ areas: string; write_scope: string | null }>(
    'SELECT areas, write_scope FROM tasks WHERE id = ?',
    [taskId],
  );
  const own = row ? declaredTaskScope(row) : [];
  const writeScope = own.length > 0 ? own : declaredScope(fallbackScope);
  if (writeScope.length === 0) return { writeScope, conflicts: [] };
  const probe: CnpAgent = { id: '', write: writeScope, exclude: [], tags: [], baseCost: 1, load: 0 };
  const call = { task_id: taskKey(taskId), writeScope } as CnpCall;
  return { writeScope, conflicts: conflictsOf(call, probe, await workingTasks(db)) };
}

/**
 * Whether `taskId` may start now: undefined, or the first gate that holds it. `checkConflicts`
 * false skips the scope check (start_task: a person or agent starting its own work marks its
 * areas instead).
 */
export async function startHold(
  db: AsyncSqlReader,
  taskId: number,
  options: GateOverrides & { checkConflicts?: boolean; agentScope?: readonly string[]; inWorkflow?: number } = {},
): Promise<GateHold | undefined> {
  if (!options.force) {
    const unmet = await unmetDependencies(db, taskId, options.inWorkflow);
    if (unmet.length > 0) {
      return {
        reason: 'dependencies',
        detail: `${taskKey(taskId)} waits for ${unmet.map((d) => `${d.id} (${d.status})`).join(', ')}`,
        blockedBy: unmet.map((d) => d.id),
        conflicts: [],
      };
    }
  }
  if (options.checkConflicts && !options.allowOverlap) {
    const { conflicts } = await scopeConflicts(db, taskId, options.agentScope);
    if (conflicts.length > 0) {
      const detail = conflicts
        .map(
          (c) =>
            `${c.runningTaskId}${c.runningAgentId ? ` (${c.runningAgentId})` : ''}: ${c.pairs.map((p) => `${p.left} ~ ${p.right}`).join(', ')}`,
        )
        .join('; ');
      return {
        reason: 'conflict',
        detail: `${taskKey(taskId)} would write where a running task writes: ${detail}`,
        blockedBy: conflicts.map((c) => c.runningTaskId),
        conflicts,
      };
    }
  }
  return undefined;
}

/** The coded refusal of a held start (InvalidStatus; `data.reason` says which gate, `data.blockedBy` which tasks). */
export function holdRefusal(taskId: number, hold: GateHold): LedgerError {
  if (hold.reason === 'dependencies') {
    return stateError(`${hold.detail}: its dependencies are not done (force: true starts it anyway)`, {
      reason: 'dependenciesNotDone',
      error: 'E-TASK-BLOCKED',
      taskId: taskKey(taskId),
      blockedBy: hold.blockedBy,
    });
  }
  return stateError(`${hold.detail} (allowOverlap: true starts it anyway)`, {
    reason: 'writeScopeConflict',
    error: 'E-CNP-SCOPE-CONFLICT',
    taskId: taskKey(taskId),
    blockedBy: hold.blockedBy,
    conflicts: hold.conflicts,
  });
}

/** Throws the coded refusal when the task is held. */
export async function requireStartable(
  db: AsyncSqlReader,
  taskId: number,
  options: Parameters<typeof startHold>[2] = {},
): Promise<void> {
  const hold = await startHold(db, taskId, options);
  if (hold) throw holdRefusal(taskId, hold);
}
