/**
 * The plan graph: the normalised graph the orchestrator tools exchange (the public
 * implementation's serialised `NormalisedGraph`, self-codex `src/graph/types.ts` and
 * `src/tools/graph/snapshot.ts`). Nodes are sorted by id, edges by (from, to) and every
 * attribute record by key, in UTF-16 code-unit order (never locale order), so equal graphs
 * serialise to equal JSON and diffs are deterministic.
 */

/** A scalar attribute value; graphs carry no nested data. */
export type GraphAttributeValue = string | number | boolean;

export type GraphAttributes = Record<string, GraphAttributeValue>;

export interface GraphNode {
  id: string;
  /** Human label, `null` when none. */
  label: string | null;
  attributes: GraphAttributes;
}

export interface GraphEdge {
  /** For plan graphs: the dependency. */
  from: string;
  /** For plan graphs: the task that depends on `from`. */
  to: string;
  label: string | null;
  attributes: GraphAttributes;
}

export interface PlanGraph {
  graph_id: string;
  /** Committed version; starts at 1 and grows by one per committed change. */
  graph_version: number;
  name: string;
  metadata: GraphAttributes;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** A graph as callers may write it: optional labels and attributes, any order. */
export interface GraphInput {
  graph_id?: string;
  graph_version?: number;
  name?: string;
  metadata?: GraphAttributes;
  nodes: Array<{ id: string; label?: string | null; attributes?: GraphAttributes }>;
  edges: Array<{ from: string; to: string; label?: string | null; attributes?: GraphAttributes }>;
}

/** Default name of a graph created without one (the public implementation's default). */
export const DEFAULT_GRAPH_NAME = 'workflow';

/** Code-unit order: deterministic in every locale, unlike `localeCompare`. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Edge order: by `from`, then `to`. */
export function compareEdges(a: { from: string; to: string }, b: { from: string; to: string }): number {
  return compareIds(a.from, b.from) || compareIds(a.to, b.to);
}

/** A copy of `attributes` with keys sorted and non-scalar values dropped. */
export function sortAttributes(attributes: Record<string, unknown> | undefined): GraphAttributes {
  const out: GraphAttributes = {};
  if (!attributes) return out;
  for (const key of Object.keys(attributes).sort(compareIds)) {
    const value = attributes[key];
    if (
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value))
    ) {
      out[key] = value;
    }
  }
  return out;
}

/**
 * Normalises a graph: sorted nodes, edges and attribute keys, labels `null` when absent.
 * Duplicates are kept (so invariants can report them), and `fallback` fills a missing id,
 * version or name.
 */
export function normaliseGraph(
  input: GraphInput,
  fallback: { graph_id?: string; graph_version?: number } = {},
): PlanGraph {
  return {
    graph_id: input.graph_id ?? fallback.graph_id ?? '',
    graph_version: input.graph_version ?? fallback.graph_version ?? 1,
    name: input.name ?? DEFAULT_GRAPH_NAME,
    metadata: sortAttributes(input.metadata),
    nodes: input.nodes
      .map((n) => ({ id: n.id, label: n.label ?? null, attributes: sortAttributes(n.attributes) }))
      .sort((a, b) => compareIds(a.id, b.id)),
    edges: input.edges
      .map((e) => ({ from: e.from, to: e.to, label: e.label ?? null, attributes: sortAttributes(e.attributes) }))
      .sort(compareEdges),
  };
}

/**
 * A graph read back from the store, normalised: what this code writes already is (checked in one
 * pass, no copy), a row written by hand or by an older version — nodes without `attributes` or
 * `label`, unsorted — is normalised like any input, so every reader can count on the shape.
 */
export function normaliseStored(raw: unknown, identity: { graph_id: string; graph_version: number }): PlanGraph {
  const g = (isRecord(raw) ? raw : {}) as Partial<PlanGraph>;
  if (Array.isArray(g.nodes) && Array.isArray(g.edges) && isNormalised(g as PlanGraph)) return g as PlanGraph;
  // Elements that are not a node or an edge at all (no id, no ends) are dropped rather than crash a reader.
  const nodes = (Array.isArray(g.nodes) ? g.nodes : []).filter((n) => isRecord(n) && typeof n.id === 'string');
  const edges = (Array.isArray(g.edges) ? g.edges : []).filter(
    (e) => isRecord(e) && typeof e.from === 'string' && typeof e.to === 'string',
  );
  return normaliseGraph(
    {
      ...g,
      name: typeof g.name === 'string' ? g.name : undefined,
      metadata: isRecord(g.metadata) ? g.metadata : undefined,
      nodes,
      edges,
    },
    identity,
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isNormalised(g: PlanGraph): boolean {
  if (
    typeof g.graph_id !== 'string' ||
    typeof g.graph_version !== 'number' ||
    typeof g.name !== 'string' ||
    !isRecord(g.metadata)
  )
    return false;
  for (let i = 0; i < g.nodes.length; i++) {
    const n = g.nodes[i];
    if (typeof n?.id !== 'string' || n.label === undefined || !isRecord(n.attributes)) return false;
    if (i > 0 && compareIds(g.nodes[i - 1].id, n.id) > 0) return false;
  }
  for (let i = 0; i < g.edges.length; i++) {
    const e = g.edges[i];
    if (typeof e?.from !== 'string' || typeof e.to !== 'string' || e.label === undefined || !isRecord(e.attributes))
      return false;
    if (i > 0 && compareEdges(g.edges[i - 1], e) > 0) return false;
  }
  return true;
}

/** Deep copy of a normalised graph (plain data only, so JSON-free and fast). */
export function cloneGraph(graph: PlanGraph): PlanGraph {
  return {
    graph_id: graph.graph_id,
    graph_version: graph.graph_version,
    name: graph.name,
    metadata: { ...graph.metadata },
    nodes: graph.nodes.map((n) => ({ id: n.id, label: n.label, attributes: { ...n.attributes } })),
    edges: graph.edges.map((e) => ({ from: e.from, to: e.to, label: e.label, attributes: { ...e.attributes } })),
  };
}

/** True when two attribute records hold the same keys and values. */
export function sameAttributes(a: GraphAttributes, b: GraphAttributes): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && a[k] === b[k]);
}

/** True when two normalised graphs have the same content (id and version are ignored). */
export function sameGraphContent(a: PlanGraph, b: PlanGraph): boolean {
  if (a.name !== b.name || !sameAttributes(a.metadata, b.metadata)) return false;
  if (a.nodes.length !== b.nodes.length || a.edges.length !== b.edges.length) return false;
  for (let i = 0; i < a.nodes.length; i++) {
    const x = a.nodes[i];
    const y = b.nodes[i];
    if (x.id !== y.id || x.label !== y.label || !sameAttributes(x.attributes, y.attributes)) return false;
  }
  for (let i = 0; i < a.edges.length; i++) {
    const x = a.edges[i];
    const y = b.edges[i];
    if (x.from !== y.from || x.to !== y.to || x.label !== y.label || !sameAttributes(x.attributes, y.attributes))
      return false;
  }
  return true;
}

/** The version a commit gets: one more when something changed, the same otherwise. */
export function nextGraphVersion(baseVersion: number, changed: boolean): number {
  return changed ? baseVersion + 1 : baseVersion;
}
