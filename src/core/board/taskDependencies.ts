import type { AsyncSqlReader } from '../ports';
import { latestGraphIndex } from '../coordination/graphCache';
import { nodeTaskId, workflowOfId, workflowRunId } from '../coordination/coordinationEvents';

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
      ? (await db.all<{ graph_id: string }>("SELECT graph_id FROM plan_graphs WHERE graph_id LIKE 'wf-%' ORDER BY graph_id")).filter(({ graph_id }) => workflowOfId(graph_id) !== null)
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
