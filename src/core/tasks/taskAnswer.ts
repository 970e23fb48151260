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
 * one round trip; the task row and its sub-tasks decide the rest (its workflow's graph, the
 * sub-tasks' cost): a task outside a workflow without sub-tasks is one round trip. Six
 * statements for a task outside a workflow, as many as the task and its timeline alone took
 * before the cost was added: the counts come from the timeline, the cost and its per-agent split
 * from one statement.
 */
export async function readTaskAnswer(db: AsyncSqlReader, id: number): Promise<TaskGetJson> {
  const row = getTask(db, id);
  const subTasks = childTasks(db, id);
  const [task, { entries, counts }, children, cost, dependencies] = await Promise.all([
    row,
    timelineWithCounts(db, id),
    subTasks,
    taskCostOf(
      db,
      id,
      subTasks.then((c) => c.length > 0),
    ),
    // Asked as soon as the task row says which workflow's graph to read.
    row.then((t) => (!t || t.workflowId === null ? noDependencies() : dependenciesOf(db, id, t.workflowId))),
  ]);
  if (!task) throw notFound('task', id);
  return { ...(taskDetailView(task, entries, children, counts) as TaskJson), dependencies, cost };
}
