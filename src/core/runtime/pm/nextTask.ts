import type { AsyncSqlReader } from '../../ports/store';
import type { PmTaskRow } from './projectTaskService';
import { pmTaskColumns } from './projectTaskService';
import type { GateHold } from '../../scheduling/startGates';
import { startHold } from '../../scheduling/startGates';

/** The task an (agent, project) works on next, or why none: the first assigned task a gate holds. */
export interface NextTask {
  task: PmTaskRow | null;
  /** Set when every in-progress task assigned to the agent is held: the oldest one's hold (dependencies or a scope conflict). */
  held?: GateHold & { taskId: number };
}

/** Checks the write-scope gate too (worker_command's E-CNP-SCOPE-CONFLICT rule), with the agent's write scope for a task that declares none. */
export interface ScopeGate {
  agentScope: readonly string[];
}

/**
 * The one rule `get_my_task` and the runner share: the oldest in-progress task of the project
 * assigned to the agent whose dependencies are done and — with `scope` — whose write scope does
 * not overlap a task someone is working on. A held task is skipped, never handed out (start_task
 * and worker_command take `force` / `allowOverlap` for a person who means it; the runner takes
 * `--allow-overlap`, and then passes no `scope`).
 *
 * A task already worked on (a session of it runs, or a run of it is open: the runner launched
 * its agent after worker_command prepared it) passed its gates when it started: it is not held
 * again for a scope conflict, or an agent would be refused the very task it was launched for.
 */
export async function nextAssignedTask(
  db: AsyncSqlReader,
  projectId: number,
  agent: string,
  scope?: ScopeGate,
): Promise<NextTask> {
  const rows = await db.all<PmTaskRow>(
    `SELECT ${pmTaskColumns} FROM tasks WHERE project_id = ? AND assignee = ? AND status = 'in_progress' AND held_at IS NULL ORDER BY id`,
    [projectId, agent],
  );
  let held: NextTask['held'];
  for (const row of rows) {
    const task = { ...row, id: Number(row.id) };
    const checkConflicts = scope !== undefined && !(await workedOn(db, task.id));
    const hold = await startHold(db, task.id, { checkConflicts, agentScope: scope?.agentScope });
    if (!hold) return { task };
    held ??= { ...hold, taskId: task.id };
  }
  return { task: null, held };
}

/** Whether someone works on the task now: a session of it runs, or a run of it is open. */
async function workedOn(db: AsyncSqlReader, taskId: number): Promise<boolean> {
  const row = await db.get<{ working: number }>(
    `SELECT CASE WHEN EXISTS (SELECT 1 FROM sessions WHERE task_id = ? AND status = 'running')
                   OR EXISTS (SELECT 1 FROM execution_logs WHERE task_id = ? AND status = 'running') THEN 1 ELSE 0 END AS working`,
    [taskId, taskId],
  );
  return Number(row?.working) === 1;
}
