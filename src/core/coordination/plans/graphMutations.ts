import { coordinationError } from '../coordinationErrors';
import type { GraphMutationOperation, GraphMutationRecord } from './graphContracts';
import { cloneGraph, compareEdges, compareIds, nextGraphVersion, sameGraphContent, sortAttributes } from './planGraph';
import type { GraphAttributes, GraphAttributeValue, GraphEdge, GraphNode, PlanGraph } from './planGraph';

/**
 * Applies `graph_mutate` operations (the public implementation's set, self-codex
 * `src/tools/graph/mutate.ts`: add/remove/rename node, add/remove edge, set node/edge
 * attribute, patch metadata; its `rewrite` operation is left out). One record per operation
 * says whether it changed anything. Unlike the public code, an `add_node`/`add_edge` on an
 * existing element that merges new attributes reports `changed: true`. The call's `changed`
 * is whether the content differs at the end, so operations that undo each other keep the
 * version (as `graph_mutate` does in the public code).
 * Invariants are not checked here: callers run `checkGraph` on the result.
 */
export interface GraphMutationResult {
  /** The new graph, normalised; its version is one more only when something changed. */
  graph: PlanGraph;
  applied: GraphMutationRecord[];
  changed: boolean;
}

interface Working {
  graph: PlanGraph;
  nodes: Map<string, GraphNode>;
}

function mergeInto(target: GraphAttributes, extra: GraphAttributes | undefined): boolean {
  let changed = false;
  for (const [key, value] of Object.entries(sortAttributes(extra))) {
    if (target[key] !== value) {
      target[key] = value;
      changed = true;
    }
  }
  return changed;
}

function setAttribute(attributes: GraphAttributes, key: string, value: GraphAttributeValue | null): boolean {
  if (value === null) {
    if (!Object.prototype.hasOwnProperty.call(attributes, key)) return false;
    delete attributes[key];
    return true;
  }
  if (attributes[key] === value) return false;
  attributes[key] = value;
  return true;
}

const record = (op: string, changed: boolean, description: string): GraphMutationRecord => ({
  op,
  description,
  changed,
});

function findEdge(w: Working, from: string, to: string): GraphEdge | undefined {
  return w.graph.edges.find((e) => e.from === from && e.to === to);
}

function applyOne(w: Working, operation: GraphMutationOperation): GraphMutationRecord {
  const g = w.graph;
  switch (operation.op) {
    case 'add_node': {
      const { id, label, attributes } = operation.node;
      const existing = w.nodes.get(id);
      if (existing) {
        let changed = mergeInto(existing.attributes, attributes);
        if (label !== undefined && label !== existing.label) {
          existing.label = label;
          changed = true;
        }
        return record(
          'add_node',
          changed,
          changed ? `node '${id}' existed; label and attributes merged` : `node '${id}' already existed`,
        );
      }
      const node: GraphNode = { id, label: label ?? null, attributes: sortAttributes(attributes) };
      g.nodes.push(node);
      w.nodes.set(id, node);
      return record('add_node', true, `node '${id}' created`);
    }
    case 'remove_node': {
      if (!w.nodes.delete(operation.id)) return record('remove_node', false, `node '${operation.id}' missing`);
      g.nodes = g.nodes.filter((n) => n.id !== operation.id);
      const before = g.edges.length;
      g.edges = g.edges.filter((e) => e.from !== operation.id && e.to !== operation.id);
      const removed = before - g.edges.length;
      return record('remove_node', true, `node '${operation.id}' removed${removed ? ` with ${removed} edge(s)` : ''}`);
    }
    case 'rename_node': {
      const { id, new_id } = operation;
      if (id === new_id) return record('rename_node', false, 'identical identifiers');
      const node = w.nodes.get(id);
      if (!node) return record('rename_node', false, `node '${id}' missing`);
      if (w.nodes.has(new_id)) return record('rename_node', false, `target '${new_id}' already exists`);
      node.id = new_id;
      w.nodes.delete(id);
      w.nodes.set(new_id, node);
      for (const e of g.edges) {
        if (e.from === id) e.from = new_id;
        if (e.to === id) e.to = new_id;
      }
      return record('rename_node', true, `node '${id}' renamed to '${new_id}'`);
    }
    case 'add_edge': {
      const { from, to, label, attributes } = operation.edge;
      const existing = findEdge(w, from, to);
      if (existing) {
        let changed = mergeInto(existing.attributes, attributes);
        if (label !== undefined && label !== existing.label) {
          existing.label = label;
          changed = true;
        }
        return record(
          'add_edge',
          changed,
          changed ? `edge '${from}' -> '${to}' existed; merged` : `edge '${from}' -> '${to}' already existed`,
        );
      }
      g.edges.push({ from, to, label: label ?? null, attributes: sortAttributes(attributes) });
      return record('add_edge', true, `edge '${from}' -> '${to}' created`);
    }
    case 'remove_edge': {
      const before = g.edges.length;
      g.edges = g.edges.filter((e) => e.from !== operation.from || e.to !== operation.to);
      const changed = g.edges.length !== before;
      return record(
        'remove_edge',
        changed,
        `edge '${operation.from}' -> '${operation.to}' ${changed ? 'removed' : 'missing'}`,
      );
    }
    case 'set_node_attribute': {
      const node = w.nodes.get(operation.id);
      if (!node) return record('set_node_attribute', false, `node '${operation.id}' missing`);
      const changed = setAttribute(node.attributes, operation.key, operation.value);
      return record(
        'set_node_attribute',
        changed,
        `attribute '${operation.key}' ${changed ? (operation.value === null ? 'removed from' : 'set on') : 'unchanged on'} '${operation.id}'`,
      );
    }
    case 'set_edge_attribute': {
      const edge = findEdge(w, operation.from, operation.to);
      if (!edge) return record('set_edge_attribute', false, `edge '${operation.from}' -> '${operation.to}' missing`);
      const changed = setAttribute(edge.attributes, operation.key, operation.value);
      return record(
        'set_edge_attribute',
        changed,
        `attribute '${operation.key}' ${changed ? (operation.value === null ? 'removed from' : 'set on') : 'unchanged on'} edge`,
      );
    }
    case 'patch_metadata': {
      const set = sortAttributes(operation.set);
      const unset = [...new Set((operation.unset ?? []).map((k) => k.trim()).filter(Boolean))];
      if (Object.keys(set).length + unset.length === 0) {
        throw coordinationError('E-GRAPH-INVALID-INPUT', 'patch_metadata needs at least one key to set or unset', {
          op: 'patch_metadata',
        });
      }
      const parts: string[] = [];
      for (const [key, value] of Object.entries(set)) {
        if (setAttribute(g.metadata, key, value)) parts.push(`${key}=${JSON.stringify(value)}`);
      }
      for (const key of unset) if (setAttribute(g.metadata, key, null)) parts.push(`-${key}`);
      return record(
        'patch_metadata',
        parts.length > 0,
        parts.length ? `metadata patched (${parts.join(', ')})` : 'metadata patch produced no change',
      );
    }
  }
}

/**
 * Applies `operations` in order to a copy of `graph` (which is not modified).
 * Throws `E-GRAPH-INVALID-INPUT` for an operation that cannot mean anything (an empty
 * `patch_metadata`); every other impossible operation is a recorded no-op, as in the public
 * implementation.
 */
export function applyGraphMutations(
  graph: PlanGraph,
  operations: readonly GraphMutationOperation[],
): GraphMutationResult {
  const copy = cloneGraph(graph);
  const w: Working = { graph: copy, nodes: new Map(copy.nodes.map((n) => [n.id, n])) };
  const applied = operations.map((op) => applyOne(w, op));
  copy.nodes.sort((a, b) => compareIds(a.id, b.id));
  copy.edges.sort(compareEdges);
  copy.metadata = sortAttributes(copy.metadata);
  for (const n of copy.nodes) n.attributes = sortAttributes(n.attributes);
  for (const e of copy.edges) e.attributes = sortAttributes(e.attributes);
  const changed = applied.some((r) => r.changed) && !sameGraphContent(copy, graph);
  copy.graph_version = nextGraphVersion(graph.graph_version, changed);
  return { graph: copy, applied, changed };
}
