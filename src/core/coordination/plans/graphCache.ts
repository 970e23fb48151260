import type { AsyncSqlReader } from '../../ports/store';
import type { GraphAttributeValue, PlanGraph } from './planGraph';
import { readVersion } from './graphStore';

/**
 * The latest committed version of plan graphs, kept in this process for the readers that only
 * look at it — a task's dependencies (task_get, the start gates), the blocked tasks (task_list
 * ready), the Board. Rebuilding a version parses its checkpoint and replays up to 32 patches
 * (graphHistory.ts): at 1,000 nodes that cost more than the rest of a task_get.
 *
 * An entry is keyed by what names one committed version for good: the graph id, the version
 * number and the commit's random tx id (a version number a rolled-back commit used is used
 * again by the next one; its tx id never is). One small statement reads that key at every look,
 * so a commit of another process is seen at once; the graph is rebuilt only when it moved. A
 * version without a tx id (rows written by hand or by old versions) is read every time.
 *
 * What it returns is shared: never change it.
 */
export interface GraphIndex {
  graph: PlanGraph;
  /** The `status` attribute of each node, by node id. */
  nodeStatus: ReadonlyMap<string, GraphAttributeValue | undefined>;
  /** The sources of the edges into each node (its dependencies in a plan). */
  incoming: ReadonlyMap<string, readonly string[]>;
  /** The targets of the edges out of each node (its dependents in a plan). */
  outgoing: ReadonlyMap<string, readonly string[]>;
}

interface Entry {
  version: number;
  txId: string;
  index: GraphIndex;
  /** Nodes plus edges: what the entry holds, for the bound. */
  size: number;
}

/** Nodes plus edges kept at most, over every cached graph (a 1,000-node plan with 2,000 edges is 3,000). */
const MAX_ELEMENTS = 60_000;

const entries = new Map<string, Entry>();
let held = 0;

function indexOf(graph: PlanGraph): GraphIndex {
  const incoming = new Map<string, string[]>();
  const outgoing = new Map<string, string[]>();
  const push = (map: Map<string, string[]>, key: string, value: string) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for (const e of graph.edges) {
    push(incoming, e.to, e.from);
    push(outgoing, e.from, e.to);
  }
  return { graph, nodeStatus: new Map(graph.nodes.map((n) => [n.id, n.attributes.status])), incoming, outgoing };
}

function remember(graphId: string, entry: Entry): void {
  forget(graphId);
  entries.set(graphId, entry);
  held += entry.size;
  // Oldest first (a Map keeps insertion order, and a hit re-inserts): the newest entry always stays.
  for (const [id] of entries) {
    if (held <= MAX_ELEMENTS || id === graphId) break;
    forget(id);
  }
}

function forget(graphId: string): void {
  const old = entries.get(graphId);
  if (!old) return;
  entries.delete(graphId);
  held -= old.size;
}

/** The graph's latest committed version with its edges indexed, or null when it was never committed. */
export async function latestGraphIndex(db: AsyncSqlReader, graphId: string): Promise<GraphIndex | null> {
  const head = await db.get<{ version: number; tx_id: string | null }>(
    `SELECT g.version, v.tx_id FROM plan_graphs g LEFT JOIN plan_graph_versions v ON v.graph_id = g.graph_id AND v.version = g.version WHERE g.graph_id = ?`,
    [graphId],
  );
  if (!head) return null;
  const version = Number(head.version);
  const cached = entries.get(graphId);
  if (cached && head.tx_id !== null && cached.version === version && cached.txId === head.tx_id) {
    entries.delete(graphId);
    entries.set(graphId, cached);
    return cached.index;
  }
  const stored = await readVersion(db, graphId, version);
  if (!stored) return null;
  const index = indexOf(stored.graph);
  if (head.tx_id !== null)
    remember(graphId, {
      version,
      txId: head.tx_id,
      index,
      size: stored.graph.nodes.length + stored.graph.edges.length,
    });
  else forget(graphId);
  return index;
}
