import type { AsyncSqlReader } from '../ports';
import { notFound } from '../ids';
import { dependenciesOf } from '../coordination/taskDependencies';
import type { TaskDependencies } from '../coordination/taskDependencies';
import { taskCostOf } from '../costs/costRollup';
import { childTasks, getTask } from './taskRepo';
import { timelineWithCounts } from './timelineRepo';
import { taskDetailView } from './taskViews';
import type { TaskGetJson, TaskJson } from './taskContracts';

/** A task outside any workflow depends on nothing. */
const noDependencies = (): TaskDependencies => ({ graph_id: null, depends_on: [], dependents: [], ready: true });

/**
 * What `task_get`, `task://{id}` and `agent-ledger task get` answer — the task, its timeline and
 * sub-tasks, its dependencies in its workflow's plan graph, and the cost of its runs — in one read
 * (one snapshot). The parts that need only the id are asked together, so PostgreSQL sends them in
 * one round trip; the task row decides the rest (its workflow's graph, the sub-tasks' cost). Six
 * statements for a task outside a workflow, as many as the task and its timeline alone took
 * before the cost was added: the counts come from the timeline, the cost and its per-agent split
 * from one statement.
 */
export async function readTaskAnswer(db: AsyncSqlReader, id: number): Promise<TaskGetJson> {
  const [task, { entries, counts }, children] = await Promise.all([getTask(db, id), timelineWithCounts(db, id), childTasks(db, id)]);
  if (!task) throw notFound('task', id);
  const [dependencies, cost] = await Promise.all([
    task.workflowId === null ? noDependencies() : dependenciesOf(db, id, task.workflowId),
    taskCostOf(db, id, children.length > 0),
  ]);
  return { ...(taskDetailView(task, entries, children, counts) as TaskJson), dependencies, cost };
}
