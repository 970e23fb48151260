import { compareText } from '../stigmergy/stigmergyField';
import { goalKey, triplesBySubject } from './knowledgeGraph';
import type { KnowledgeGraph } from './knowledgeGraph';

/**
 * Plans read back from triples, and the fragments suggested from them. The vocabulary is the
 * public implementation's (src/knowledge/knowledgeGraph.ts `buildPlanPattern`,
 * src/knowledge/assist.ts `buildFragment`), so its playbooks load as they are:
 *   (goal, "includes", taskId)          a task of the plan; source and confidence live here
 *   (task:<taskId>, "depends_on", id)    a dependency on another task id
 *   (task:<taskId>, "label", text)       its title
 *   (task:<taskId>, "duration", "3")     numeric metadata, also "weight"
 * A fragment is a HierGraph: nodes (kind "task") carry kg_goal, kg_source, kg_confidence,
 * kg_seed, kg_group (and kg_duration / kg_weight when known); edges go from a dependency to the
 * task that needs it, with label "depends_on" and attributes.kg_dependency = true.
 */

/** A task of a recorded plan, with what its triples say about it. */
export interface PlanTask {
  id: string;
  label?: string;
  dependsOn: string[];
  duration?: number;
  weight?: number;
  source: string | null;
  confidence: number;
}

/** A plan read back from the graph: its subject and its tasks in insertion order. */
export interface PlanPattern {
  plan: string;
  tasks: PlanTask[];
}

/** A value a graph node or edge attribute may hold. */
export type GraphAttribute = string | number | boolean;

/** A task node of a fragment. */
export interface HierNode {
  id: string;
  kind: 'task';
  label?: string;
  attributes: Record<string, GraphAttribute>;
}

/** A dependency edge of a fragment: `from` must come before `to`. */
export interface HierEdge {
  id: string;
  from: { nodeId: string };
  to: { nodeId: string };
  label: 'depends_on';
  attributes: { kg_dependency: true };
}

/** A plan fragment (the hierarchical graph shape of the plan tools). */
export interface HierGraph {
  id: string;
  nodes: HierNode[];
  edges: HierEdge[];
}

/**
 * The plan recorded for a goal: the goal as written, else its key (`Add login` → `add-login`).
 * Null when no triple says the goal `includes` anything.
 */
export function planPattern(kg: KnowledgeGraph, goal: string, bySubject = triplesBySubject(kg)): PlanPattern | null {
  const subject = [goal, goalKey(goal)].find((g) => (bySubject.get(g) ?? []).some((t) => t.predicate === 'includes'));
  if (subject === undefined) return null;
  const includes = (bySubject.get(subject) ?? []).filter((t) => t.predicate === 'includes');
  const seen = new Set<string>();
  const tasks: PlanTask[] = [];
  for (const inc of includes) {
    if (seen.has(inc.object)) continue;
    seen.add(inc.object);
    const facts = bySubject.get(`task:${inc.object}`) ?? [];
    const first = (predicate: string) => facts.find((t) => t.predicate === predicate)?.object;
    const task: PlanTask = {
      id: inc.object,
      dependsOn: [...new Set(facts.filter((t) => t.predicate === 'depends_on').map((t) => t.object))],
      source: inc.source,
      confidence: inc.confidence,
    };
    const label = first('label');
    if (label !== undefined) task.label = label;
    const duration = numeric(first('duration'));
    if (duration !== null) task.duration = duration;
    const weight = numeric(first('weight'));
    if (weight !== null) task.weight = weight;
    tasks.push(task);
  }
  return { plan: subject, tasks };
}

/** What building a fragment selected. */
export interface FragmentBuild {
  graph: HierGraph;
  selected: Set<string>;
  seeds: Set<string>;
}

/**
 * A fragment grown from seed tasks: the seeds plus, transitively, the dependencies they have
 * among `included` tasks. Nodes are ordered dependencies first (by depth, then id).
 */
export function buildFragment(
  goal: string,
  fragmentId: string,
  group: string,
  seeds: readonly PlanTask[],
  included: ReadonlyMap<string, PlanTask>,
): FragmentBuild {
  const selected = new Map<string, PlanTask>();
  const seedIds = new Set(seeds.map((s) => s.id));
  const queue = [...seeds];
  for (const s of seeds) selected.set(s.id, s);
  while (queue.length > 0) {
    const current = queue.shift() as PlanTask;
    for (const dep of current.dependsOn) {
      const task = included.get(dep);
      if (task && !selected.has(dep)) {
        selected.set(dep, task);
        queue.push(task);
      }
    }
  }
  const depth = new Map<string, number>();
  const depthOf = (id: string, visiting: Set<string>): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 1;
    visiting.add(id);
    const deps = (selected.get(id)?.dependsOn ?? []).filter((d) => selected.has(d));
    const d = 1 + Math.max(0, ...deps.map((dep) => depthOf(dep, visiting)));
    visiting.delete(id);
    depth.set(id, d);
    return d;
  };
  const ordered = [...selected.values()].sort(
    (a, b) => depthOf(a.id, new Set()) - depthOf(b.id, new Set()) || compareText(a.id, b.id),
  );
  const nodes = ordered.map((task): HierNode => {
    const attributes: Record<string, GraphAttribute> = {
      kg_goal: goal,
      kg_source: task.source ?? 'unknown',
      kg_confidence: round3(task.confidence),
      kg_seed: seedIds.has(task.id),
      kg_group: group,
    };
    if (task.duration !== undefined) attributes.kg_duration = round3(task.duration);
    if (task.weight !== undefined) attributes.kg_weight = round3(task.weight);
    return { id: task.id, kind: 'task', ...(task.label !== undefined ? { label: task.label } : {}), attributes };
  });
  const edges: HierEdge[] = [];
  const pairs = new Set<string>();
  for (const task of ordered) {
    for (const dep of task.dependsOn) {
      const pair = `${dep}\u0000${task.id}`;
      if (!selected.has(dep) || pairs.has(pair)) continue;
      pairs.add(pair);
      edges.push({
        id: `${fragmentId}-edge-${edges.length + 1}`,
        from: { nodeId: dep },
        to: { nodeId: task.id },
        label: 'depends_on',
        attributes: { kg_dependency: true },
      });
    }
  }
  return { graph: { id: fragmentId, nodes, edges }, selected: new Set(selected.keys()), seeds: seedIds };
}

/** A node or edge of a workflow's plan graph (the graph tools' descriptor shape). */
export interface PlanGraphNode {
  id: string;
  label?: string;
  attributes: Record<string, GraphAttribute>;
}
/** An edge of a workflow's plan graph. */
export interface PlanGraphEdge {
  from: string;
  to: string;
  label: 'depends_on';
  attributes: Record<string, GraphAttribute>;
}

/** What applying a fragment to a plan graph adds, in three equivalent forms. */
export interface PlanGraphAddition {
  nodes: PlanGraphNode[];
  edges: PlanGraphEdge[];
  /** Fragment nodes and edges (`from->to`) the graph already has, left alone. */
  skipped: { nodes: string[]; edges: string[] };
  /** The same additions as graph mutation operations (`add_node`, `add_edge`). */
  operations: ({ op: 'add_node'; node: PlanGraphNode } | { op: 'add_edge'; edge: PlanGraphEdge })[];
  /**
   * And as the RFC 6902 patch `graph_patch` applies: paths address the graph's keyed view
   * (`/nodes/<id>`, `/edges/<from>/<to>`, ids escaped as JSON pointer tokens); edges from a node
   * with no edge yet come as one `/edges/<from>` object.
   */
  patch: PlanGraphPatchOperation[];
}

/** An `add` operation of a plan-graph patch. */
export interface PlanGraphPatchOperation {
  op: 'add';
  path: string;
  value:
    | { label: string | null; attributes: Record<string, GraphAttribute> }
    | Record<string, { label: string | null; attributes: Record<string, GraphAttribute> }>;
}

/** A JSON pointer token (RFC 6901): `~` → `~0`, `/` → `~1`. */
export function pointerToken(id: string): string {
  return id.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Turns a suggested fragment into additions to a workflow's plan graph. `idMap` renames
 * fragment tasks to nodes the graph already has (e.g. a task of the workflow that does the
 * same thing); nodes and edges already present are skipped, never duplicated.
 */
export function fragmentToPlanAddition(
  fragment: HierGraph,
  graph: { nodes: readonly { id: string }[]; edges: readonly { from: string; to: string }[] },
  idMap: Readonly<Record<string, string>> = {},
): PlanGraphAddition {
  const rename = (id: string) => idMap[id] ?? id;
  const haveNodes = new Set(graph.nodes.map((n) => n.id));
  const haveEdges = new Set(graph.edges.map((e) => `${e.from}->${e.to}`));
  const haveSources = new Set(graph.edges.map((e) => e.from));
  const out: PlanGraphAddition = { nodes: [], edges: [], skipped: { nodes: [], edges: [] }, operations: [], patch: [] };
  for (const n of fragment.nodes) {
    const id = rename(n.id);
    if (haveNodes.has(id)) {
      out.skipped.nodes.push(id);
      continue;
    }
    haveNodes.add(id);
    const node: PlanGraphNode = {
      id,
      ...(n.label !== undefined ? { label: n.label } : {}),
      attributes: { ...n.attributes },
    };
    out.nodes.push(node);
    out.operations.push({ op: 'add_node', node });
    out.patch.push({
      op: 'add',
      path: `/nodes/${pointerToken(id)}`,
      value: { label: node.label ?? null, attributes: node.attributes },
    });
  }
  for (const e of fragment.edges) {
    const from = rename(e.from.nodeId);
    const to = rename(e.to.nodeId);
    const key = `${from}->${to}`;
    if (haveEdges.has(key)) {
      out.skipped.edges.push(key);
      continue;
    }
    haveEdges.add(key);
    const edge: PlanGraphEdge = { from, to, label: 'depends_on', attributes: { ...e.attributes } };
    out.edges.push(edge);
    out.operations.push({ op: 'add_edge', edge });
  }
  const fresh = new Map<string, Record<string, { label: string | null; attributes: Record<string, GraphAttribute> }>>();
  for (const edge of out.edges) {
    const value = { label: edge.label, attributes: edge.attributes };
    if (haveSources.has(edge.from))
      out.patch.push({ op: 'add', path: `/edges/${pointerToken(edge.from)}/${pointerToken(edge.to)}`, value });
    else fresh.set(edge.from, { ...(fresh.get(edge.from) ?? {}), [edge.to]: value });
  }
  for (const [from, targets] of fresh)
    out.patch.push({ op: 'add', path: `/edges/${pointerToken(from)}`, value: targets });
  return out;
}

function numeric(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
