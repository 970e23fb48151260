import { escapePathComponent, unescapePathComponent } from 'fast-json-patch';
import type { JsonPatchOperation } from './graphDiff';
import { compareEdges, compareIds, sameAttributes } from './planGraph';
import type { GraphAttributes, GraphEdge, GraphNode, PlanGraph } from './planGraph';

/**
 * How a plan graph's versions are kept (plan_graph_versions, migration v15): a version is either
 * a *checkpoint* (the whole graph) or a *patch*: RFC 6902 operations on the keyed view of
 * graphDiff.ts that turn the version before it into this one. A patch row names the checkpoint
 * its chain starts from, so reading version k reads one range of rows — the checkpoint and at
 * most {@link CHECKPOINT_EVERY} patches — and replays them ({@link replayVersion}).
 *
 * Decision (issue 11): forward patches with a periodic checkpoint, not "the current graph
 * materialised plus reverse patches". Materialising the current graph rewrites the whole graph on
 * every commit (one row holding it, or thousands of node rows to read back), which is the O(graph)
 * write this replaces; forward patches make a commit write O(change) and every N-th commit one
 * graph. N = 32: replaying 32 one-operation patches onto a 1,000-node graph costs well under the
 * JSON parse of its checkpoint (bench/graphStorage.bench.ts prints both), while a checkpoint every
 * 32 versions keeps the stored bytes about 1/32 of whole-graph versions for small edits.
 * A chain also ends early when its patches hold more operations than the graph has elements, so
 * a history of bulk edits never replays more than about one graph's worth of operations.
 */
export const CHECKPOINT_EVERY = 32;

/** Where a stored version sits in its chain: the checkpoint it replays from and what lies between. */
export interface VersionChain {
  /** Version of the checkpoint the chain starts from (the version itself for a checkpoint). */
  checkpoint: number;
  /** Patches replayed after the checkpoint to reach this version. */
  patches: number;
  /** Operations in those patches. */
  ops: number;
}

/** True when the next version should be stored whole rather than as `ops` more operations on `chain`. */
export function needsCheckpoint(chain: VersionChain | null, ops: number, next: PlanGraph): boolean {
  if (chain === null) return true;
  return chain.patches + 1 > CHECKPOINT_EVERY || chain.ops + ops > next.nodes.length + next.edges.length;
}

type Element = { label: string | null; attributes: GraphAttributes };

const element = (e: Element): Element => ({ label: e.label, attributes: { ...e.attributes } });
const sameElement = (a: Element, b: Element): boolean =>
  a.label === b.label && sameAttributes(a.attributes, b.attributes);

/** Merge-walks two id-sorted lists, calling `both`, `onlyBase` or `onlyNext` per id. */
function mergeWalk<T>(
  base: readonly T[],
  next: readonly T[],
  key: (t: T) => string,
  visit: { both(a: T, b: T): void; onlyBase(a: T): void; onlyNext(b: T): void },
): void {
  let i = 0;
  let j = 0;
  while (i < base.length || j < next.length) {
    const order = i >= base.length ? 1 : j >= next.length ? -1 : compareIds(key(base[i]), key(next[j]));
    if (order === 0) visit.both(base[i++], next[j++]);
    else if (order < 0) visit.onlyBase(base[i++]);
    else visit.onlyNext(next[j++]);
  }
}

/** Edges grouped by source, keeping the (from, to) order of a normalised graph. */
function bySource(edges: readonly GraphEdge[]): { from: string; edges: GraphEdge[] }[] {
  const groups: { from: string; edges: GraphEdge[] }[] = [];
  for (const e of edges) {
    const last = groups[groups.length - 1];
    if (last && last.from === e.from) last.edges.push(e);
    else groups.push({ from: e.from, edges: [e] });
  }
  return groups;
}

/**
 * The patch stored for a new version: operations on the keyed view that turn `base` into `next`,
 * one per changed element (a changed node or edge is replaced whole). Both graphs are normalised
 * (sorted), so this is one merge walk with no cloning — unlike `graph_diff`'s fine-grained
 * patch, which fast-json-patch's `compare` computes over two full copies. For storage only:
 * what a tool answers never comes from here.
 */
export function versionPatch(base: PlanGraph, next: PlanGraph): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  if (base.name !== next.name) ops.push({ op: 'replace', path: '/name', value: next.name });
  if (!sameAttributes(base.metadata, next.metadata))
    ops.push({ op: 'replace', path: '/metadata', value: { ...next.metadata } });
  mergeWalk(base.nodes, next.nodes, (n) => n.id, {
    both: (a, b) => {
      if (!sameElement(a, b))
        ops.push({ op: 'replace', path: `/nodes/${escapePathComponent(b.id)}`, value: element(b) });
    },
    onlyBase: (a) => ops.push({ op: 'remove', path: `/nodes/${escapePathComponent(a.id)}` }),
    onlyNext: (b) => ops.push({ op: 'add', path: `/nodes/${escapePathComponent(b.id)}`, value: element(b) }),
  });
  mergeWalk(bySource(base.edges), bySource(next.edges), (g) => g.from, {
    both: (a, b) => {
      const from = `/edges/${escapePathComponent(a.from)}`;
      mergeWalk(a.edges, b.edges, (e) => e.to, {
        both: (x, y) => {
          if (!sameElement(x, y))
            ops.push({ op: 'replace', path: `${from}/${escapePathComponent(y.to)}`, value: element(y) });
        },
        onlyBase: (x) => ops.push({ op: 'remove', path: `${from}/${escapePathComponent(x.to)}` }),
        onlyNext: (y) => ops.push({ op: 'add', path: `${from}/${escapePathComponent(y.to)}`, value: element(y) }),
      });
    },
    onlyBase: (a) => ops.push({ op: 'remove', path: `/edges/${escapePathComponent(a.from)}` }),
    onlyNext: (b) =>
      ops.push({
        op: 'add',
        path: `/edges/${escapePathComponent(b.from)}`,
        value: Object.fromEntries(b.edges.map((e) => [e.to, element(e)])),
      }),
  });
  return ops;
}

/** The patch to store for `next`, or null when it must be a checkpoint: a path would name `__proto__`. */
export function storedPatch(base: PlanGraph, next: PlanGraph): JsonPatchOperation[] | null {
  const ops = versionPatch(base, next);
  return ops.some((o) => o.path.split('/').includes('__proto__')) ? null : ops;
}

/** What a chain of stored patches changes, element by element (the last operation on a key wins). */
interface ChainChanges {
  name?: string;
  metadata?: GraphAttributes;
  nodes: Map<string, Element | null>;
  /** Sources whose edges were all removed or replaced at once: their earlier edges are gone. */
  resetSources: Set<string>;
  edges: Map<string, Map<string, Element | null>>;
}

function collect(patches: readonly (readonly JsonPatchOperation[])[]): ChainChanges {
  const c: ChainChanges = { nodes: new Map(), resetSources: new Set(), edges: new Map() };
  const targets = (from: string) => c.edges.get(from) ?? c.edges.set(from, new Map()).get(from)!;
  for (const patch of patches) {
    for (const op of patch) {
      const [, section, a, b] = op.path.split('/').map(unescapePathComponent);
      const value = op.op === 'remove' ? null : (op as { value: unknown }).value;
      if (section === 'name') c.name = value as string;
      else if (section === 'metadata') c.metadata = value as GraphAttributes;
      else if (section === 'nodes') c.nodes.set(a, value as Element | null);
      else if (section === 'edges' && b === undefined) {
        c.resetSources.add(a);
        c.edges.set(a, new Map(Object.entries((value ?? {}) as Record<string, Element>)));
      } else if (section === 'edges') targets(a).set(b, value as Element | null);
      else throw new Error(`not a stored plan-graph patch operation: ${op.op} ${op.path}`);
    }
  }
  return c;
}

/**
 * A stored version rebuilt from its checkpoint and the patches after it, in order, with the
 * version's own id and number. Stored patches are RFC 6902 on the keyed view, and
 * fast-json-patch applies them (the unit test checks both agree); but they only ever add,
 * replace or remove whole elements (see {@link versionPatch}), so replay collects the last
 * change of each element and merges it into the checkpoint's sorted arrays in one pass, instead
 * of building the keyed view of the whole graph and sorting it back: at 1,000 nodes that costs
 * about as much as parsing the checkpoint, this a small fraction of it (bench/graphStorage.bench.ts).
 */
export function replayVersion(
  checkpoint: PlanGraph,
  patches: readonly (readonly JsonPatchOperation[])[],
  identity: Pick<PlanGraph, 'graph_id' | 'graph_version'>,
): PlanGraph {
  const graph = { ...checkpoint, graph_id: identity.graph_id, graph_version: identity.graph_version };
  if (patches.every((p) => p.length === 0)) return graph;
  const c = collect(patches);
  const nodes: GraphNode[] = checkpoint.nodes.filter((n) => !c.nodes.has(n.id));
  for (const [id, e] of c.nodes) if (e) nodes.push({ id, label: e.label, attributes: e.attributes });
  const edges: GraphEdge[] = checkpoint.edges.filter(
    (e) => !c.resetSources.has(e.from) && !c.edges.get(e.from)?.has(e.to),
  );
  for (const [from, targets] of c.edges)
    for (const [to, e] of targets) if (e) edges.push({ from, to, label: e.label, attributes: e.attributes });
  return {
    ...graph,
    name: c.name ?? checkpoint.name,
    metadata: c.metadata ?? checkpoint.metadata,
    nodes: c.nodes.size ? nodes.sort((x, y) => compareIds(x.id, y.id)) : nodes,
    edges: c.edges.size ? edges.sort(compareEdges) : edges,
  };
}
