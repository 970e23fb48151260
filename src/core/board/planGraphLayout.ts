import type * as Dagre from '@dagrejs/dagre' with { 'resolution-mode': 'import' };
import { taskKey } from '../ids';

// dagre ships ESM types and a CommonJS build: the types come by `import type`, the code by require.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Graph, layout } = require('@dagrejs/dagre') as typeof Dagre;

/**
 * A workflow's plan drawn as a DAG: its tasks as nodes, `depends_on` as edges (from the
 * dependency to the task that needs it) and a sub-task's parent as an edge of its own kind (from
 * the parent to the sub-task), laid out together by dagre (layered, top to bottom). The input is
 * built purely (tested on its own); the layout is the library's, never hand-written.
 */
export const NODE_WIDTH = 220;
/** Three lines: title, state, and why the task does not run (a hold, the runner's reason). */
export const NODE_HEIGHT = 72;

export interface PlanTaskRow {
  id: number;
  title: string;
  status: string;
  result: string | null;
  agent: string | null;
  progress: number | null;
  /** Why the task does not run now, as the Board card says it (null: nothing holds it). */
  why: NodeWhy | null;
  /** The task it is a sub-task of, if any. */
  parentId?: number | null;
}

/** A person's hold, or the runner's reason for not starting the task. */
export interface NodeWhy {
  kind: 'held' | 'waiting';
  text: string;
}

/** What a node says of a task that does not run: a hold first; the runner's word only while the task is open. */
export function nodeWhy(status: string, heldBy: string | null, waiting: { detail: string } | null): NodeWhy | null {
  if (heldBy) return { kind: 'held', text: `held — stopped by ${heldBy}` };
  if (waiting && (status === 'open' || status === 'in_progress')) return { kind: 'waiting', text: waiting.detail };
  return null;
}

/** `dependency`: `from` must be done before `to`; `parent`: `to` is a sub-task of `from`. */
export type PlanEdgeKind = 'dependency' | 'parent';

export interface LayoutInput {
  nodes: { id: string; width: number; height: number }[];
  edges: { from: string; to: string; kind: PlanEdgeKind }[];
}

export interface PlanGraphNode {
  /** `task-12` */
  id: string;
  taskId: number;
  title: string;
  status: string;
  result: string | null;
  agent: string | null;
  progress: number | null;
  why: NodeWhy | null;
  /** Centre of the node. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlanGraphEdge {
  from: string;
  to: string;
  kind: PlanEdgeKind;
  /** The polyline dagre routed, start to end. */
  points: { x: number; y: number }[];
}

export interface PlanGraphModel {
  workflowId: number;
  workflowKey: string;
  name: string;
  nodes: PlanGraphNode[];
  edges: PlanGraphEdge[];
  width: number;
  height: number;
}

/**
 * What dagre is given: a node per task (id order), an edge per dependency between two tasks of
 * the workflow (a dependency on a task outside it, or on itself, is left out), each once, then
 * an edge from each sub-task's parent when the parent is in the workflow too.
 */
export function layoutInput(
  tasks: readonly PlanTaskRow[],
  dependencies: ReadonlyMap<number, readonly number[]>,
): LayoutInput {
  const ids = new Set(tasks.map((t) => t.id));
  const sorted = [...tasks].sort((a, b) => a.id - b.id);
  const edges: LayoutInput['edges'] = [];
  const seen = new Set<string>();
  for (const t of sorted) {
    for (const d of [...(dependencies.get(t.id) ?? [])].sort((a, b) => a - b)) {
      const k = `${d}>${t.id}`;
      if (d === t.id || !ids.has(d) || seen.has(k)) continue;
      seen.add(k);
      edges.push({ from: taskKey(d), to: taskKey(t.id), kind: 'dependency' });
    }
  }
  for (const t of sorted) {
    const parent = t.parentId;
    if (parent !== null && parent !== undefined && parent !== t.id && ids.has(parent))
      edges.push({ from: taskKey(parent), to: taskKey(t.id), kind: 'parent' });
  }
  return { nodes: sorted.map((t) => ({ id: taskKey(t.id), width: NODE_WIDTH, height: NODE_HEIGHT })), edges };
}

/** An edge's key in PlacedGraph.edges: one dependency and one parent edge may join the same two tasks. */
export function edgeKey(e: { from: string; to: string; kind: PlanEdgeKind }): string {
  return `${e.kind}:${e.from}>${e.to}`;
}

export interface PlacedGraph {
  nodes: Map<string, { x: number; y: number }>;
  /** By edgeKey. */
  edges: Map<string, { x: number; y: number }[]>;
  width: number;
  height: number;
}

/**
 * Positions of every node and the route of every edge. A parent often waits for its sub-tasks
 * (a dependency against the parent edge): the greedy acyclicer breaks such a cycle on the
 * lighter parent edge, so the layers follow the order of work and the parent edge runs upwards.
 */
export function layoutGraph(input: LayoutInput): PlacedGraph {
  const g = new Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 28, ranksep: 56, marginx: 16, marginy: 16, acyclicer: 'greedy' });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of input.nodes) g.setNode(n.id, { width: n.width, height: n.height });
  for (const e of input.edges) g.setEdge(e.from, e.to, { weight: e.kind === 'dependency' ? 4 : 1 }, e.kind);
  layout(g);
  const nodes = new Map(
    input.nodes.map((n) => {
      const placed = g.node(n.id);
      return [n.id, { x: placed.x ?? 0, y: placed.y ?? 0 }];
    }),
  );
  const edges = new Map(
    input.edges.map((e) => [
      edgeKey(e),
      (g.edge(e.from, e.to, e.kind)?.points ?? []).map((p: { x: number; y: number }) => ({ x: p.x, y: p.y })),
    ]),
  );
  const size = g.graph();
  return { nodes, edges, width: size.width ?? 0, height: size.height ?? 0 };
}

/** The plan graph of a workflow, laid out (`place`: the layout, e.g. one that reuses the last for an unchanged shape). */
export function planGraphModel(
  workflow: { id: number; key: string; name: string },
  tasks: readonly PlanTaskRow[],
  dependencies: ReadonlyMap<number, readonly number[]>,
  place: (input: LayoutInput) => PlacedGraph = layoutGraph,
): PlanGraphModel {
  const input = layoutInput(tasks, dependencies);
  const placed = place(input);
  const byKey = new Map(tasks.map((t) => [taskKey(t.id), t]));
  return {
    workflowId: workflow.id,
    workflowKey: workflow.key,
    name: workflow.name,
    nodes: input.nodes.map((n) => {
      const t = byKey.get(n.id)!;
      const at = placed.nodes.get(n.id)!;
      return {
        id: n.id,
        taskId: t.id,
        title: t.title,
        status: t.status,
        result: t.result,
        agent: t.agent,
        progress: t.progress,
        why: t.why,
        x: at.x,
        y: at.y,
        width: n.width,
        height: n.height,
      };
    }),
    edges: input.edges.map((e) => ({ ...e, points: placed.edges.get(edgeKey(e)) ?? [] })),
    width: placed.width,
    height: placed.height,
  };
}
