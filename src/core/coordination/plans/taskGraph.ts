import { coordinationError } from '../coordinationErrors';
import { findCycles } from './graphInvariants';
import { compareIds, normaliseGraph } from './planGraph';
import type { GraphAttributes, PlanGraph } from './planGraph';

/**
 * A workflow's plan as a graph: one node per task (id = task id, attributes `status` and
 * `title`), one edge per dependency, from the dependency to the task that needs it, labelled
 * `depends_on` (the orientation and label of the public implementation's `graph_generate`).
 */
export interface PlanTask {
  id: string;
  title: string;
  status: string;
  /** Ids of the tasks this one needs done first. */
  depends_on: string[];
}

/** Label of a dependency edge. */
export const DEPENDS_ON = 'depends_on';

/** Status a task must have for its dependants to be ready. */
export const DONE_STATUS = 'done';

/** Status of a task that is waiting to be picked up. */
export const OPEN_STATUS = 'open';

/** The plan graph of `tasks` (dependencies on unknown ids become dangling edges, which `checkGraph` reports). */
export function tasksToGraph(
  tasks: readonly PlanTask[],
  identity: { graph_id: string; graph_version?: number; name?: string; metadata?: GraphAttributes },
): PlanGraph {
  return normaliseGraph({
    graph_id: identity.graph_id,
    graph_version: identity.graph_version ?? 1,
    name: identity.name,
    metadata: identity.metadata,
    nodes: tasks.map((t) => ({ id: t.id, label: t.title, attributes: { status: t.status, title: t.title } })),
    edges: tasks.flatMap((t) => [...new Set(t.depends_on)].map((dep) => ({ from: dep, to: t.id, label: DEPENDS_ON }))),
  });
}

/**
 * The tasks of a plan graph, in id order. Title falls back to the label then the id, status
 * to `open`; every incoming edge is a dependency, whatever its label.
 */
export function graphToTasks(graph: PlanGraph): PlanTask[] {
  const deps = new Map<string, Set<string>>();
  for (const e of graph.edges) {
    if (!deps.has(e.to)) deps.set(e.to, new Set());
    deps.get(e.to)!.add(e.from);
  }
  return graph.nodes.map((n) => ({
    id: n.id,
    title: typeof n.attributes.title === 'string' ? n.attributes.title : (n.label ?? n.id),
    status: typeof n.attributes.status === 'string' ? n.attributes.status : OPEN_STATUS,
    depends_on: [...(deps.get(n.id) ?? [])].sort(compareIds),
  }));
}

export interface ReadyOptions {
  /** Statuses that satisfy a dependency (default: `done`). */
  doneStatuses?: readonly string[];
  /** Statuses a task may have to be handed out (default: `open`). */
  pickableStatuses?: readonly string[];
}

/**
 * Tasks that can start now: pickable status and every dependency done. A dependency on an
 * id that is not in `tasks` is never done, so such a task is not ready. Keeps input order.
 */
export function readyTasks(tasks: readonly PlanTask[], options: ReadyOptions = {}): PlanTask[] {
  const done = new Set(options.doneStatuses ?? [DONE_STATUS]);
  const pickable = new Set(options.pickableStatuses ?? [OPEN_STATUS]);
  const status = new Map(tasks.map((t) => [t.id, t.status]));
  return tasks.filter((t) => pickable.has(t.status) && t.depends_on.every((d) => done.has(status.get(d) ?? '')));
}

/** The dependencies of `task` that are not done yet (unknown ids included), in id order. */
export function unmetDependencies(task: PlanTask, tasks: readonly PlanTask[], options: ReadyOptions = {}): string[] {
  const done = new Set(options.doneStatuses ?? [DONE_STATUS]);
  const status = new Map(tasks.map((t) => [t.id, t.status]));
  return [...new Set(task.depends_on)].filter((d) => !done.has(status.get(d) ?? '')).sort(compareIds);
}

/**
 * Task ids in an order where every task comes after its dependencies; among tasks free at
 * the same time, the smallest id first (Kahn's algorithm), so the order is deterministic.
 * Dependencies on unknown ids are ignored. Throws `E-PATCH-CYCLE` with the cycle when there
 * is one.
 */
export function topologicalOrder(tasks: readonly PlanTask[]): string[] {
  const ids = new Set(tasks.map((t) => t.id));
  const indegree = new Map<string, number>();
  const dependants = new Map<string, string[]>();
  for (const t of tasks) indegree.set(t.id, 0);
  for (const t of tasks) {
    for (const d of new Set(t.depends_on)) {
      if (!ids.has(d)) continue;
      indegree.set(t.id, indegree.get(t.id)! + 1);
      if (!dependants.has(d)) dependants.set(d, []);
      dependants.get(d)!.push(t.id);
    }
  }
  const free = [...indegree].filter(([, n]) => n === 0).map(([id]) => id);
  const heap = new MinHeap(free);
  const order: string[] = [];
  for (let id = heap.pop(); id !== undefined; id = heap.pop()) {
    order.push(id);
    for (const next of dependants.get(id) ?? []) {
      const n = indegree.get(next)! - 1;
      indegree.set(next, n);
      if (n === 0) heap.push(next);
    }
  }
  if (order.length < ids.size) {
    const graph = {
      nodes: tasks.map((t) => ({ id: t.id })),
      edges: tasks.flatMap((t) => t.depends_on.filter((d) => ids.has(d)).map((d) => ({ from: d, to: t.id }))),
    };
    const cycle = findCycles(graph)[0] ?? [];
    throw coordinationError('E-PATCH-CYCLE', `the dependencies form a cycle: ${cycle.join(' -> ')}`, { cycle });
  }
  return order;
}

/** A binary min-heap of ids (code-unit order), so a 10,000-task order stays O(n log n). */
class MinHeap {
  private readonly items: string[] = [];
  constructor(initial: string[]) {
    for (const id of initial) this.push(id);
  }
  push(id: string): void {
    const a = this.items;
    a.push(id);
    for (let i = a.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (compareIds(a[p], a[i]) <= 0) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): string | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && compareIds(a[l], a[m]) < 0) m = l;
        if (r < a.length && compareIds(a[r], a[m]) < 0) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}
