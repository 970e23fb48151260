import type { AsyncSqlReader } from '../ports';
import type { PmTaskRow } from '../projects/projectTaskService';
import { pmTaskColumns } from '../projects/projectTaskService';
import type { GateHold } from '../scheduling/startGates';
import { startHold } from '../scheduling/startGates';

/** The task an (agent, project) works on next, or why none: the first assigned task held by its dependencies. */
export interface NextTask {
  task: PmTaskRow | null;
  /** Set when every in-progress task assigned to the agent waits for a dependency: the oldest one's. */
  held?: GateHold & { taskId: number };
}

/**
 * The one rule `get_my_task` and the runner share: the oldest in-progress task of the project
 * assigned to the agent whose dependencies are done. A task whose dependencies are not done is
 * never handed out (start_task and worker_command take `force` for a person who means it).
 */
export async function nextAssignedTask(db: AsyncSqlReader, projectId: number, agent: string): Promise<NextTask> {
  const rows = await db.all<PmTaskRow>(`SELECT ${pmTaskColumns} FROM tasks WHERE project_id = ? AND assignee = ? AND status = 'in_progress' ORDER BY id`, [projectId, agent]);
  let held: NextTask['held'];
  for (const row of rows) {
    const task = { ...row, id: Number(row.id) };
    const hold = await startHold(db, task.id);
    if (!hold) return { task };
    held ??= { ...hold, taskId: task.id };
  }
  return { task: null, held };
}
