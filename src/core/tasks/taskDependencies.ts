import type { AsyncSqlReader } from '../ports/store';
import { nodeTaskId, taskNodeId, workflowOfId, workflowRunId } from '../events/correlation';
import { latestGraphIndex } from '../coordination/plans/graphCache';
import { DONE_STATUS } from '../coordination/plans/taskGraph';

/**
 * What a task depends on, read from its workflow's plan graph (`wf-<id>`: an edge from the
 * dependency to the task, node ids `task-<id>`). A task outside a workflow, or in a workflow whose
 * plan was never changed, has no dependencies. A dependency is met when its task is done; a node
 * that is not a task of the ledger is met when the graph says `status: done`.
 */
export interface TaskDependency {
  /** The node id (`task-12` for a ledger task). */
  id: string;
  status: string;
  done: boolean;
}

export interface TaskDependencies {
  /** The plan graph the edges come from, null when the task is in no workflow. */
  graph_id: string | null;
  depends_on: TaskDependency[];
  /** Tasks that depend on this one. */
  dependents: TaskDependency[];
  /** Every dependency is done. */
  ready: boolean;
}

async function statuses(db: AsyncSqlReader, workflowId: number): Promise<Map<string, string>> {
  const rows = await db.all<{ id: number; status: string }>('SELECT id, status FROM tasks WHERE workflow_id = ?', [
    workflowId,
  ]);
  return new Map(rows.map((r) => [taskNodeId(Number(r.id)), r.status]));
}

/** Ids bound per statement: far below SQLite's and PostgreSQL's limits on parameters. */
const IDS_PER_STATEMENT = 500;

/** The statuses of the workflow's tasks among `nodes` only (one task's edges, not a 50,000-task workflow). */
async function statusesOf(
  db: AsyncSqlReader,
  workflowId: number,
  nodes: Iterable<string>,
): Promise<Map<string, string>> {
  const ids = [...new Set([...nodes].map(nodeTaskId).filter((id): id is number => id !== null))];
  const live = new Map<string, string>();
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const chunk = ids.slice(i, i + IDS_PER_STATEMENT);
    const rows = await db.all<{ id: number; status: string }>(
      `SELECT id, status FROM tasks WHERE workflow_id = ? AND id IN (${chunk.map(() => '?').join(', ')})`,
      [workflowId, ...chunk],
    );
    for (const r of rows) live.set(taskNodeId(Number(r.id)), r.status);
  }
  return live;
}

function dependency(node: string, live: Map<string, string>, graphStatus: unknown): TaskDependency {
  const status =
    live.get(node) ?? (nodeTaskId(node) === null && typeof graphStatus === 'string' ? graphStatus : 'unknown');
  return { id: node, status, done: status === DONE_STATUS };
}

export async function dependenciesOf(
  db: AsyncSqlReader,
  taskId: number,
  inWorkflow?: number,
): Promise<TaskDependencies> {
  // `inWorkflow`: the workflow the task is about to join (start_task with task_id moves it there).
  const task =
    inWorkflow === undefined
      ? await db.get<{ workflow_id: number | null }>('SELECT workflow_id FROM tasks WHERE id = ?', [taskId])
      : { workflow_id: inWorkflow };
  if (!task || task.workflow_id === null) return { graph_id: null, depends_on: [], dependents: [], ready: true };
  const workflowId = Number(task.workflow_id);
  const graphId = workflowRunId(workflowId);
  // A workflow whose plan was never changed has no edges: its graph is not built (readLatest would
  // make one from every task of the workflow, 50,000 rows for a big one, at every task_get).
  // A changed one is read from this process's cache while no commit moved it (graphCache.ts).
  const index = await latestGraphIndex(db, graphId);
  const node = taskNodeId(taskId);
  const from = index?.incoming.get(node) ?? [];
  const to = index?.outgoing.get(node) ?? [];
  // Only the statuses of the tasks at the other end of this task's edges: none without a plan.
  const live = await statusesOf(db, workflowId, [...from, ...to]);
  const depends_on = from.map((id) => dependency(id, live, index?.nodeStatus.get(id)));
  const dependents = to.map((id) => dependency(id, live, index?.nodeStatus.get(id)));
  return { graph_id: graphId, depends_on, dependents, ready: depends_on.every((d) => d.done) };
}

/** Ids of the ledger tasks with a dependency not done yet, over every workflow's plan graph. */
export async function blockedTaskIds(db: AsyncSqlReader): Promise<Set<number>> {
  const blocked = new Set<number>();
  const graphs = await db.all<{ graph_id: string }>('SELECT graph_id FROM plan_graphs');
  for (const { graph_id } of graphs) {
    const workflowId = workflowOfId(graph_id);
    if (workflowId === null) continue;
    const index = await latestGraphIndex(db, graph_id);
    if (!index) continue;
    const live = await statuses(db, workflowId);
    for (const e of index.graph.edges) {
      const target = nodeTaskId(e.to);
      if (target !== null && !dependency(e.from, live, index.nodeStatus.get(e.from)).done) blocked.add(target);
    }
  }
  return blocked;
}

/**
 * Where a workflow's task dependencies come from: the latest version of its plan graph (the
 * graph_* tools' `plan_graphs` / `plan_graph_versions`, migration v6), named `wf-<id>` like the
 * workflow's run (`workflowRunId`: the name task_get, the runner and the graph tools use), whose
 * nodes are the workflow's tasks and whose edges run from a dependency to the task that needs it
 * (core/coordination/taskGraph.ts).
 */

interface GraphEdges {
  edges?: readonly { from?: unknown; to?: unknown }[];
}

/** Dependency pairs `[dependency, dependant]` (task ids) of one plan graph, in edge order. */
export function dependencyPairs(graph: GraphEdges): [number, number][] {
  const pairs: [number, number][] = [];
  for (const e of graph.edges ?? []) {
    if (typeof e.from !== 'string' || typeof e.to !== 'string') continue;
    const from = nodeTaskId(e.from);
    const to = nodeTaskId(e.to);
    if (from !== null && to !== null && from !== to) pairs.push([from, to]);
  }
  return pairs;
}

/**
 * task id → ids of the tasks it depends on, from the latest plan graph of each workflow (or of
 * the one given). Tasks without dependencies are absent.
 */
export async function readDependencies(db: AsyncSqlReader, workflowId?: number): Promise<Map<number, number[]>> {
  const graphs =
    workflowId === undefined
      ? (
          await db.all<{ graph_id: string }>(
            "SELECT graph_id FROM plan_graphs WHERE graph_id LIKE 'wf-%' ORDER BY graph_id",
          )
        ).filter(({ graph_id }) => workflowOfId(graph_id) !== null)
      : [{ graph_id: workflowRunId(workflowId) }];
  const deps = new Map<number, number[]>();
  for (const { graph_id } of graphs) {
    // Versions are stored as checkpoints and patches: the latest is kept per process while no commit moves it.
    const latest = await latestGraphIndex(db, graph_id);
    for (const [from, to] of latest ? dependencyPairs(latest.graph) : []) {
      const list = deps.get(to) ?? [];
      if (!list.includes(from)) list.push(from);
      deps.set(to, list);
    }
  }
  return deps;
}
