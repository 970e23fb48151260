import { applyOperation, compare, JsonPatchError } from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { coordinationError } from '../coordinationErrors';
import { compareEdges, compareIds, sortAttributes } from './planGraph';
import type { GraphAttributes, GraphEdge, GraphNode, PlanGraph } from './planGraph';

/**
 * `graph_diff` and the JSON-patch half of `graph_patch`. Patches are RFC 6902 and address a
 * *keyed* view of the graph, so a path names a node by id rather than by array index:
 *
 * ```
 * { name, metadata, nodes: { <id>: { label, attributes } },
 *   edges: { <from>: { <to>: { label, attributes } } } }
 * ```
 *
 * e.g. `/nodes/t42/attributes/status`. Index paths would turn "remove the 3rd of 1,000 nodes"
 * into ~1,000 `replace` operations and break when two patches touch the same array. The
 * public implementation (self-codex `src/graph/diff.ts`) sidesteps this by replacing whole
 * `nodes`/`edges` arrays; the keyed view keeps patches small and readable instead.
 * Diffing and applying use fast-json-patch (see the module report for the comparison).
 */
export interface GraphDiffDocument {
  name: string;
  metadata: GraphAttributes;
  nodes: Record<string, { label: string | null; attributes: GraphAttributes }>;
  edges: Record<string, Record<string, { label: string | null; attributes: GraphAttributes }>>;
}

/** One RFC 6902 operation. */
export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; path: string; from: string };

/** Which top-level sections of the graph differ (the public implementation's summary). */
export interface GraphDiffSummary {
  nameChanged: boolean;
  metadataChanged: boolean;
  nodesChanged: boolean;
  edgesChanged: boolean;
}

export interface GraphDiffResult {
  /** Operations that turn the base graph into the target graph. */
  operations: JsonPatchOperation[];
  changed: boolean;
  summary: GraphDiffSummary;
}

/** A key that would reach an object's prototype once the document is cloned through JSON. */
const FORBIDDEN_KEY = '__proto__';

function assertKey(key: string, where: string): void {
  if (key === FORBIDDEN_KEY)
    throw coordinationError('E-GRAPH-INVALID-INPUT', `'${FORBIDDEN_KEY}' cannot be used as ${where}`, { key });
}

/** The keyed view of a graph that patches address. */
export function toDiffDocument(graph: PlanGraph): GraphDiffDocument {
  const nodes: GraphDiffDocument['nodes'] = {};
  for (const n of graph.nodes) {
    assertKey(n.id, 'a node id');
    nodes[n.id] = { label: n.label, attributes: { ...n.attributes } };
  }
  const edges: GraphDiffDocument['edges'] = {};
  for (const e of graph.edges) {
    assertKey(e.from, 'a node id');
    assertKey(e.to, 'a node id');
    (edges[e.from] ??= {})[e.to] = { label: e.label, attributes: { ...e.attributes } };
  }
  return { name: graph.name, metadata: { ...graph.metadata }, nodes, edges };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function invalid(message: string, path: string): never {
  throw coordinationError('E-PATCH-INVALID', message, { path });
}

function readAttributes(value: unknown, path: string): GraphAttributes {
  if (value === undefined) return {};
  if (!isRecord(value)) invalid(`${path} must be an object of scalar attributes`, path);
  for (const [key, v] of Object.entries(value)) {
    if (key === FORBIDDEN_KEY) invalid(`${path} has a forbidden key`, path);
    if (!(typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))) {
      invalid(`${path}/${key} must be a string, a finite number or a boolean`, `${path}/${key}`);
    }
  }
  return sortAttributes(value);
}

function readElement(value: unknown, path: string): { label: string | null; attributes: GraphAttributes } {
  if (!isRecord(value)) invalid(`${path} must be an object with label and attributes`, path);
  const label = value.label ?? null;
  if (label !== null && typeof label !== 'string') invalid(`${path}/label must be a string or null`, `${path}/label`);
  return { label, attributes: readAttributes(value.attributes, `${path}/attributes`) };
}

/** Reads a patched keyed view back into a normalised graph, refusing anything malformed. */
export function fromDiffDocument(doc: unknown, identity: Pick<PlanGraph, 'graph_id' | 'graph_version'>): PlanGraph {
  if (!isRecord(doc)) invalid('the patched document must be an object', '');
  if (typeof doc.name !== 'string' || doc.name.length === 0) invalid('/name must be a non-empty string', '/name');
  if (!isRecord(doc.nodes)) invalid('/nodes must be an object keyed by node id', '/nodes');
  if (!isRecord(doc.edges)) invalid('/edges must be an object keyed by source node id', '/edges');
  const nodes: GraphNode[] = [];
  for (const [id, value] of Object.entries(doc.nodes)) {
    if (id === '' || id === FORBIDDEN_KEY) invalid(`invalid node id '${id}'`, `/nodes/${id}`);
    nodes.push({ id, ...readElement(value, `/nodes/${id}`) });
  }
  const edges: GraphEdge[] = [];
  for (const [from, targets] of Object.entries(doc.edges)) {
    if (!isRecord(targets)) invalid(`/edges/${from} must be an object keyed by target node id`, `/edges/${from}`);
    for (const [to, value] of Object.entries(targets))
      edges.push({ from, to, ...readElement(value, `/edges/${from}/${to}`) });
  }
  return {
    graph_id: identity.graph_id,
    graph_version: identity.graph_version,
    name: doc.name,
    metadata: readAttributes(doc.metadata, '/metadata'),
    nodes: nodes.sort((a, b) => compareIds(a.id, b.id)),
    edges: edges.sort(compareEdges),
  };
}

/** RFC 6902 patch from `base` to `target`, with the section summary. Deterministic. */
export function diffGraphs(base: PlanGraph, target: PlanGraph): GraphDiffResult {
  const operations = compare(toDiffDocument(base), toDiffDocument(target)) as JsonPatchOperation[];
  const sections = new Set(operations.map((o) => o.path.split('/')[1]));
  return {
    operations,
    changed: operations.length > 0,
    summary: {
      nameChanged: sections.has('name'),
      metadataChanged: sections.has('metadata'),
      nodesChanged: sections.has('nodes'),
      edgesChanged: sections.has('edges'),
    },
  };
}

/**
 * Applies an RFC 6902 patch to the keyed view of `base` and returns the resulting graph with
 * the same id and version (versions are the commit's business). Throws `E-PATCH-INVALID`
 * with the index of the failing operation when an operation cannot apply (unknown path,
 * failed `test`, missing value) or when the result is not a graph.
 */
export function applyGraphPatch(base: PlanGraph, patch: readonly JsonPatchOperation[]): PlanGraph {
  let doc: unknown = toDiffDocument(base);
  // One operation at a time: fast-json-patch's own validation reports index 0 whatever the
  // failing operation, so the index comes from this loop. The document is ours and fresh,
  // so it is patched in place (no clone); prototype modifications stay banned.
  patch.forEach((operation, index) => {
    try {
      doc = applyOperation(doc, operation as Operation, true, true, true, index).newDocument;
    } catch (ex) {
      if (ex instanceof JsonPatchError) {
        throw coordinationError('E-PATCH-INVALID', `patch operation ${index} cannot apply: ${ex.name}`, {
          index,
          reason: ex.name,
          operation,
        });
      }
      if (ex instanceof TypeError)
        throw coordinationError('E-PATCH-INVALID', `patch operation ${index}: ${ex.message}`, { index, operation });
      throw ex;
    }
  });
  return fromDiffDocument(doc, base);
}
