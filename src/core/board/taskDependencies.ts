import type { AsyncSqlReader } from '../ports';
import { parseId } from '../ids';

/**
 * Where a workflow's task dependencies come from: the latest version of its plan graph (the
 * graph_* tools' `plan_graphs` / `plan_graph_versions`, migration v6), whose nodes are the
 * workflow's tasks and whose edges run from a dependency to the task that needs it
 * (core/coordination/taskGraph.ts). One place to change if dependencies get a table of their own.
 */
export function workflowGraphId(workflowId: number): string {
  return `workflow-${workflowId}`;
}

/** A task id from a plan graph node id (`12`, `task-12`), or null for a node that is not a task. */
export function nodeTaskId(nodeId: string): number | null {
  try {
    return parseId('task', nodeId);
  } catch {
    return null;
  }
}

interface StoredGraph {
  nodes?: { id?: unknown }[];
  edges?: { from?: unknown; to?: unknown }[];
}

/** Dependency pairs `[dependency, dependant]` (task ids) of one stored plan graph, in edge order. */
export function dependencyPairs(graphJson: string): [number, number][] {
  let graph: StoredGraph;
  try {
    graph = JSON.parse(graphJson) as StoredGraph;
  } catch {
    return [];
  }
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
  const rows = await db.all<{ graph: string }>(
    `SELECT v.graph FROM plan_graphs g JOIN plan_graph_versions v ON v.graph_id = g.graph_id AND v.version = g.version
     WHERE ${workflowId === undefined ? "g.graph_id LIKE 'workflow-%'" : 'g.graph_id = ?'}`,
    workflowId === undefined ? [] : [workflowGraphId(workflowId)],
  );
  const deps = new Map<number, number[]>();
  for (const row of rows) {
    for (const [from, to] of dependencyPairs(row.graph)) {
      const list = deps.get(to) ?? [];
      if (!list.includes(from)) list.push(from);
      deps.set(to, list);
    }
  }
  return deps;
}
