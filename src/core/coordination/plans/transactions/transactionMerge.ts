import { coordinationError } from '../../coordinationErrors';
import { checkGraph } from '../graphInvariants';
import { compareEdges, compareIds, sameAttributes, sortAttributes } from '../planGraph';
import type { GraphAttributeValue, GraphEdge, GraphNode, PlanGraph } from '../planGraph';

/**
 * Whether a transaction's changes commute with the commits made since it began, and the graph
 * its commit stores. A transaction changed a set of *places* of the graph (its base against its
 * working copy); the commits since changed another set (the base against the committed graph).
 * A place is as small as a change can be:
 *
 *   name · metadata/<key> · nodes/<id> (the node added or removed) · nodes/<id>/label ·
 *   nodes/<id>/attributes/<key> · edges/<from>/<to> (added or removed) · edges/<from>/<to>/label ·
 *   edges/<from>/<to>/attributes/<key>
 *
 * The two commute when no place of one is the same as, or inside, a place of the other — except
 * the same place given the same value on both sides (two agents marking one node done agree).
 * Their merge (the committed graph with the transaction's places written over it) must still be
 * a plan graph: no dangling edge, no cycle, so "removed node a" beside "added edge a→b", or
 * "added a→b" beside "added b→a", does not commute either. Anything else refuses the commit
 * with E-TX-CONFLICT naming the places.
 */
export type Place = readonly string[];

interface Change {
  place: Place;
  /** The value the side left at that place; undefined when it removed what was there. */
  value: unknown;
}

function diffAttributes(
  out: Change[],
  at: readonly string[],
  a: Record<string, GraphAttributeValue>,
  b: Record<string, GraphAttributeValue>,
) {
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (a[key] !== b[key]) out.push({ place: [...at, key], value: b[key] });
  }
}

function elementChanges<T extends { label: string | null; attributes: Record<string, GraphAttributeValue> }>(
  out: Change[],
  at: readonly string[],
  a: T | undefined,
  b: T | undefined,
) {
  if (!a || !b) {
    if (a || b) out.push({ place: at, value: b });
    return;
  }
  if (a.label !== b.label) out.push({ place: [...at, 'label'], value: b.label });
  if (!sameAttributes(a.attributes, b.attributes))
    diffAttributes(out, [...at, 'attributes'], a.attributes, b.attributes);
}

/** Every place `target` differs from `base` at, with the value `target` has there. */
export function changedPlaces(base: PlanGraph, target: PlanGraph): Change[] {
  const out: Change[] = [];
  if (base.name !== target.name) out.push({ place: ['name'], value: target.name });
  diffAttributes(out, ['metadata'], base.metadata, target.metadata);
  const nodesA = new Map(base.nodes.map((n) => [n.id, n]));
  const nodesB = new Map(target.nodes.map((n) => [n.id, n]));
  for (const id of new Set([...nodesA.keys(), ...nodesB.keys()]))
    elementChanges(out, ['nodes', id], nodesA.get(id), nodesB.get(id));
  const edgeKey = (e: GraphEdge) => JSON.stringify([e.from, e.to]);
  const edgesA = new Map(base.edges.map((e) => [edgeKey(e), e]));
  const edgesB = new Map(target.edges.map((e) => [edgeKey(e), e]));
  for (const key of new Set([...edgesA.keys(), ...edgesB.keys()])) {
    const [from, to] = JSON.parse(key) as [string, string];
    elementChanges(out, ['edges', from, to], edgesA.get(key), edgesB.get(key));
  }
  return out;
}

const within = (inner: Place, outer: Place) =>
  inner.length >= outer.length && outer.every((part, i) => inner[i] === part);

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The places both sides changed differently (empty when the changes commute). */
export function overlappingPlaces(ours: readonly Change[], theirs: readonly Change[]): string[] {
  const out = new Set<string>();
  for (const a of ours) {
    for (const b of theirs) {
      const same = a.place.length === b.place.length && within(a.place, b.place);
      if (same && sameValue(a.value, b.value)) continue;
      if (within(a.place, b.place) || within(b.place, a.place))
        out.add((a.place.length <= b.place.length ? a.place : b.place).join('/'));
    }
  }
  return [...out].sort();
}

/** `graph` with every change written over it (a new graph; ids and version kept). */
export function writeChanges(graph: PlanGraph, changes: readonly Change[]): PlanGraph {
  let name = graph.name;
  const metadata: Record<string, GraphAttributeValue> = { ...graph.metadata };
  const nodes = new Map<string, GraphNode>(
    graph.nodes.map((n) => [n.id, { id: n.id, label: n.label, attributes: { ...n.attributes } }]),
  );
  const edges = new Map<string, GraphEdge>(
    graph.edges.map((e) => [
      JSON.stringify([e.from, e.to]),
      { from: e.from, to: e.to, label: e.label, attributes: { ...e.attributes } },
    ]),
  );
  const setAttribute = (attributes: Record<string, GraphAttributeValue>, key: string, value: unknown) => {
    if (value === undefined) delete attributes[key];
    else attributes[key] = value as GraphAttributeValue;
  };
  for (const { place, value } of changes) {
    if (place[0] === 'name') name = value as string;
    else if (place[0] === 'metadata') setAttribute(metadata, place[1], value);
    else if (place[0] === 'nodes') {
      const id = place[1];
      if (place.length === 2) {
        if (value === undefined) nodes.delete(id);
        else nodes.set(id, { ...(value as GraphNode), attributes: { ...(value as GraphNode).attributes } });
        continue;
      }
      const node = nodes.get(id);
      if (!node) continue; // the other side removed it: overlappingPlaces already refused this
      if (place[2] === 'label') node.label = value as string | null;
      else setAttribute(node.attributes, place[3], value);
    } else {
      const key = JSON.stringify([place[1], place[2]]);
      if (place.length === 3) {
        if (value === undefined) edges.delete(key);
        else edges.set(key, { ...(value as GraphEdge), attributes: { ...(value as GraphEdge).attributes } });
        continue;
      }
      const edge = edges.get(key);
      if (!edge) continue;
      if (place[3] === 'label') edge.label = value as string | null;
      else setAttribute(edge.attributes, place[4], value);
    }
  }
  return {
    graph_id: graph.graph_id,
    graph_version: graph.graph_version,
    name,
    metadata: sortAttributes(metadata),
    nodes: [...nodes.values()]
      .map((n) => ({ ...n, attributes: sortAttributes(n.attributes) }))
      .sort((a, b) => compareIds(a.id, b.id)),
    edges: [...edges.values()].map((e) => ({ ...e, attributes: sortAttributes(e.attributes) })).sort(compareEdges),
  };
}

export interface MergeInput {
  /** The graph the transaction began on. */
  base: PlanGraph;
  /** The transaction's working copy. */
  working: PlanGraph;
  /** The committed graph now. */
  head: PlanGraph;
  txId: string;
}

/**
 * The content a transaction commits: its working copy when the graph has not moved, else the
 * committed graph with the transaction's changes written over it when the two commute (see the
 * file's comment). Throws E-TX-CONFLICT otherwise; `merged` says whether the graph had moved.
 */
export function mergeTransaction({ base, working, head, txId }: MergeInput): { graph: PlanGraph; merged: boolean } {
  const theirs = changedPlaces(base, head);
  if (theirs.length === 0) return { graph: { ...working, graph_version: head.graph_version }, merged: false };
  const ours = changedPlaces(base, working);
  const conflict = (message: string, data: Record<string, unknown>) =>
    coordinationError('E-TX-CONFLICT', message, {
      graph_id: head.graph_id,
      tx_id: txId,
      base_version: base.graph_version,
      committed_version: head.graph_version,
      ...data,
      hint: 'roll the transaction back, begin again on the committed graph and apply your operations again',
    });
  const overlap = overlappingPlaces(ours, theirs);
  if (overlap.length > 0)
    throw conflict(
      `graph '${head.graph_id}' moved from version ${base.graph_version} to ${head.graph_version} since transaction ${txId} began, and both changed ${overlap.slice(0, 5).join(', ')}${overlap.length > 5 ? ` and ${overlap.length - 5} more` : ''}`,
      { places: overlap },
    );
  const merged = writeChanges({ ...head }, ours);
  const report = checkGraph(merged);
  if (!report.ok)
    throw conflict(
      `graph '${head.graph_id}' moved from version ${base.graph_version} to ${head.graph_version} since transaction ${txId} began; with both changes it would break an invariant: ${report.violations[0].message}`,
      { places: [], violations: report.violations },
    );
  return { graph: merged, merged: true };
}
