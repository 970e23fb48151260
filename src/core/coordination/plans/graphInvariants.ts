import { coordinationError } from '../coordinationErrors';
import type { CoordinationErrorName } from '../coordinationErrors';
import { compareIds } from './planGraph';
import type { PlanGraph } from './planGraph';

/**
 * Invariants of a plan graph, with the public implementation's violation shape and codes
 * (self-codex `src/graph/invariants.ts`, `src/graph/validate.ts`): structural breakage is
 * `E-GRAPH-INVALID-INPUT`, a cycle is `E-PATCH-CYCLE`, each with a JSON pointer `path`.
 * Structure is always checked; acyclicity only when invariants are enforced (the default),
 * like `validateGraph(graph, { enforceInvariants })` there. Unlike the public code, an empty
 * graph and isolated nodes are fine: a plan may have no tasks, and a task may have no
 * dependency.
 */
export interface GraphInvariantViolation {
  code: CoordinationErrorName;
  message: string;
  /** JSON pointer into the normalised graph, e.g. `/edges/3`. */
  path: string;
  hint?: string;
  details?: Record<string, unknown>;
}

/** `{ ok: true }` or every violation found. */
export type GraphInvariantReport = { ok: true } | { ok: false; violations: GraphInvariantViolation[] };

export interface GraphCheckOptions {
  /** Check acyclicity too (default true). */
  enforceInvariants?: boolean;
  /** Allow an edge from a node to itself (default false). */
  allowSelfLoops?: boolean;
}

/**
 * Every directed cycle reachable by a depth-first walk, each as the node path that closes it
 * (`[a, b, c, a]`). Iterative, so a 100,000-node chain cannot overflow the stack; nodes and
 * successors are visited in id order, so the answer is deterministic.
 */
export function findCycles(graph: {
  nodes: ReadonlyArray<{ id: string }>;
  edges: ReadonlyArray<{ from: string; to: string }>;
}): string[][] {
  const successors = new Map<string, string[]>();
  for (const n of graph.nodes) successors.set(n.id, []);
  for (const e of graph.edges) {
    if (!successors.has(e.from)) successors.set(e.from, []);
    successors.get(e.from)!.push(e.to);
  }
  for (const list of successors.values()) list.sort(compareIds);
  const state = new Map<string, 1 | 2>(); // 1 on the current path, 2 finished
  const cycles: string[][] = [];
  for (const root of [...successors.keys()].sort(compareIds)) {
    if (state.has(root)) continue;
    const path: string[] = [root];
    const next: number[] = [0];
    state.set(root, 1);
    while (path.length > 0) {
      const node = path[path.length - 1];
      const succ = successors.get(node) ?? [];
      const i = next[next.length - 1]++;
      if (i >= succ.length) {
        state.set(node, 2);
        path.pop();
        next.pop();
        continue;
      }
      const target = succ[i];
      const s = state.get(target);
      if (s === 1) cycles.push([...path.slice(path.lastIndexOf(target)), target]);
      else if (s === undefined) {
        state.set(target, 1);
        path.push(target);
        next.push(0);
      }
    }
  }
  return cycles;
}

/** Checks the invariants of a normalised graph and returns every violation. */
export function checkGraph(graph: PlanGraph, options: GraphCheckOptions = {}): GraphInvariantReport {
  const violations: GraphInvariantViolation[] = [];
  const ids = new Set<string>();
  graph.nodes.forEach((node, index) => {
    if (ids.has(node.id)) {
      violations.push({
        code: 'E-GRAPH-INVALID-INPUT',
        message: `duplicate node identifier '${node.id}'`,
        path: `/nodes/${index}`,
        hint: 'ensure_node_ids_unique',
        details: { node: node.id },
      });
    }
    ids.add(node.id);
  });
  const pairs = new Set<string>();
  graph.edges.forEach((edge, index) => {
    const path = `/edges/${index}`;
    const details = { from: edge.from, to: edge.to };
    if (!ids.has(edge.from) || !ids.has(edge.to)) {
      const missing = [edge.from, edge.to].filter((id) => !ids.has(id));
      violations.push({
        code: 'E-GRAPH-INVALID-INPUT',
        message: `edge '${edge.from}' -> '${edge.to}' references an unknown node`,
        path,
        hint: 'ensure_edge_nodes_exist',
        details: { ...details, missing },
      });
    }
    if (edge.from === edge.to && !options.allowSelfLoops) {
      violations.push({
        code: 'E-GRAPH-INVALID-INPUT',
        message: `self-loop on node '${edge.from}'`,
        path,
        hint: 'remove_self_loop',
        details,
      });
    }
    const key = JSON.stringify([edge.from, edge.to]);
    if (pairs.has(key)) {
      violations.push({
        code: 'E-GRAPH-INVALID-INPUT',
        message: `duplicate edge '${edge.from}' -> '${edge.to}'`,
        path,
        hint: 'ensure_edges_unique',
        details,
      });
    }
    pairs.add(key);
  });
  if (options.enforceInvariants ?? true) {
    for (const cycle of findCycles(graph)) {
      if (cycle.length === 2 && options.allowSelfLoops) continue;
      violations.push({
        code: 'E-PATCH-CYCLE',
        message: `cycle detected: ${cycle.join(' -> ')}`,
        path: '/edges',
        hint: 'remove or reroute one of the cycle edges',
        details: { cycle },
      });
    }
  }
  return violations.length === 0 ? { ok: true } : { ok: false, violations };
}

/**
 * Throws when `checkGraph` finds violations: the error is named after the first violation
 * (the public implementation's rule), or `E-PATCH-INVARIANT-VIOLATION` when they are of
 * several kinds, and `data.violations` lists them all. Returns the (ok) report otherwise.
 */
export function assertGraphValid(graph: PlanGraph, options: GraphCheckOptions = {}): GraphInvariantReport {
  const report = checkGraph(graph, options);
  if (report.ok) return report;
  const codes = new Set(report.violations.map((v) => v.code));
  const name = codes.size === 1 ? report.violations[0].code : 'E-PATCH-INVARIANT-VIOLATION';
  const first = report.violations[0];
  const more = report.violations.length > 1 ? ` (and ${report.violations.length - 1} more)` : '';
  throw coordinationError(name, `graph '${graph.graph_id}' breaks its invariants: ${first.message}${more}`, {
    graph_id: graph.graph_id,
    violations: report.violations,
  });
}
