import { validationError } from '../../errors';
import { nodeTaskId } from '../../events/correlation';
import type { GraphNode, PlanGraph } from '../../coordination/plans/planGraph';
import { graphToTasks, topologicalOrder } from '../../coordination/plans/taskGraph';
import type { BtNode, CompiledTree, NamedNode } from './behaviourTree';
import { nameAndCheck } from './behaviourTree';

/**
 * A workflow's plan graph as a behaviour tree. Each node becomes a task leaf that waits for its
 * dependencies (`after`), all under one parallel node (join `all`), so independent tasks run at
 * once and each starts the moment its dependencies are done. A node's attributes decorate it:
 *
 * - `agent`: who runs it (else the run's `agents` map, the task's assignee, the run's default);
 * - `retries` (n): retried n times after a failure (`retry` with max_attempts n + 1);
 * - `timeout_ms`: stopped and failed when it runs longer;
 * - `fallback`: the id of another node of the graph that runs when this one fails (a selector);
 *   that node is then only the alternative, not a task of its own;
 * - `gate`: a person approves (the text says what) before the task starts;
 * - `guard`: a run variable that must be true for the task to run.
 *
 * A node that is not a ledger task (`task-<id>`) compiles to a gate when its `kind` is `gate`, and
 * is refused otherwise: there would be nothing to run.
 */
export function compileGraph(graph: PlanGraph): CompiledTree & { root: NamedNode } {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const tasks = graphToTasks(graph);
  // Refuses a cycle with E-PATCH-CYCLE, naming it.
  const order = topologicalOrder(tasks);
  const deps = new Map(tasks.map((t) => [t.id, t.depends_on]));
  const alternatives = new Map<string, string>();
  for (const node of graph.nodes) {
    const fallback = node.attributes.fallback;
    if (fallback === undefined) continue;
    if (typeof fallback !== 'string' || !byId.has(fallback) || fallback === node.id)
      throw validationError(`node ${node.id}: fallback ${String(fallback)} is not another node of the graph`, {
        node_id: node.id,
      });
    if (alternatives.has(fallback))
      throw validationError(`node ${fallback} is the fallback of two nodes`, { node_id: fallback });
    if ((deps.get(fallback) ?? []).length > 0 || tasks.some((t) => t.depends_on.includes(fallback)))
      throw validationError(
        `node ${fallback} is the fallback of ${node.id}: it must have no dependencies of its own nor dependants (it takes ${node.id}'s place)`,
        { node_id: fallback },
      );
    alternatives.set(fallback, node.id);
  }
  if (graph.nodes.length === 0)
    throw validationError(`graph ${graph.graph_id} has no node: there is nothing to run`, {
      graph_id: graph.graph_id,
    });
  const children: BtNode[] = order
    .filter((id) => !alternatives.has(id))
    .map((id) => {
      const node = byId.get(id)!;
      const fallback = typeof node.attributes.fallback === 'string' ? byId.get(node.attributes.fallback) : undefined;
      const after = deps.get(id) ?? [];
      const primary = decorated(node, id, after);
      if (!fallback) return primary;
      return {
        type: 'selector',
        id,
        children: [renamed(primary, `${id}~primary`), decorated(fallback, fallback.id, after)],
      } satisfies BtNode;
    });
  return nameAndCheck({ id: graph.graph_id, root: { type: 'parallel', id: 'root', policy: 'all', children } });
}

/** A node's leaf with its decorations, the outermost named `id`. */
function decorated(node: GraphNode, id: string, after: string[]): BtNode {
  const a = node.attributes;
  const afterField = after.length > 0 ? { after } : {};
  let leaf: BtNode;
  if (nodeTaskId(node.id) !== null) {
    leaf = {
      type: 'task',
      id: `${id}~task`,
      node_id: node.id,
      ...(typeof a.agent === 'string' ? { agent: a.agent } : {}),
      ...afterField,
    };
  } else if (a.kind === 'gate') {
    leaf = { type: 'gate', id: `${id}~gate`, title: node.label ?? node.id, ...afterField };
  } else {
    throw validationError(
      `node ${node.id} is not a ledger task (task-<id>) nor a gate (attribute kind: "gate"): there is nothing to run`,
      { node_id: node.id },
    );
  }
  if (typeof a.gate === 'string' && a.gate.trim())
    leaf = {
      type: 'sequence',
      id: `${id}~approved`,
      children: [{ type: 'gate', id: `${id}~gate`, title: a.gate, ...afterField }, leaf],
    };
  const retries = a.retries;
  if (retries !== undefined) {
    if (typeof retries !== 'number' || !Number.isInteger(retries) || retries < 0 || retries > 19)
      throw validationError(`node ${node.id}: retries must be a whole number from 0 to 19`, { node_id: node.id });
    if (retries > 0) leaf = { type: 'retry', id: `${id}~retry`, max_attempts: retries + 1, child: leaf };
  }
  const timeout = a.timeout_ms;
  if (timeout !== undefined) {
    if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1)
      throw validationError(`node ${node.id}: timeout_ms must be a positive whole number`, { node_id: node.id });
    leaf = { type: 'timeout', id: `${id}~timeout`, timeout_ms: timeout, child: leaf };
  }
  if (typeof a.guard === 'string' && a.guard.trim())
    leaf = { type: 'guard', id: `${id}~guard`, condition_key: a.guard, child: leaf };
  return renamed(leaf, id);
}

function renamed(node: BtNode, id: string): BtNode {
  return { ...node, id };
}
