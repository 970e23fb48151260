import type { AsyncSqlReader, AsyncSqlWriter } from '../../ports/store';
import { appendCoordinationEvent } from '../bus/coordinationEvents';
import { taskNodeId, workflowOfId } from '../../events/correlation';
import type { Correlation } from '../../events/correlation';
import type { GraphLock } from './graphLocks';
import type { JsonPatchOperation } from './graphDiff';
import { needsCheckpoint, replayVersion, storedPatch } from './graphHistory';
import type { VersionChain } from './graphHistory';
import { normaliseGraph, normaliseStored } from './planGraph';
import type { PlanGraph } from './planGraph';
import { tasksToGraph } from './taskGraph';
import { defaultLimits, limitReached } from '../../limits/ledgerLimits';
import type { LedgerLimits } from '../../limits/ledgerLimits';

export type GraphLimits = Pick<LedgerLimits, 'graphVersionBytes' | 'graphVersionsKept'>;

/**
 * The plan graphs in the store (plan_graphs, plan_graph_versions, plan_graph_locks: migrations
 * v6, v9 and v15), as plain statements over the asynchronous port so they run on both engines.
 * The newest graphVersionsKept committed versions are kept (older ones go with the commit that
 * passes the count), each as a checkpoint or a patch on the version before it (graphHistory.ts):
 * a commit writes what changed, and reading a version replays at most CHECKPOINT_EVERY patches
 * from its checkpoint. A stored version is at most graphVersionBytes characters.
 * A workflow's plan is the graph `wf-<id>` (nodes `task-<id>`): until its
 * first commit it is derived from the workflow's tasks (version 0, nodes with status and title,
 * no edges); edges are `depends_on` (from the dependency to the task that needs it).
 */
export interface StoredGraph {
  graph: PlanGraph;
  /** Commit time of this version (epoch ms), null for a version 0 that was never committed. */
  committed_at: number | null;
  /** True when the graph has at least one committed version. */
  stored: boolean;
  /** Where a committed version sits in its chain of patches (absent for version 0). */
  chain?: VersionChain;
}

export interface VersionRow {
  graph_id: string;
  version: number;
  committed_at: number;
  base_version: number | null;
  tx_id: string | null;
  owner: string | null;
  note: string | null;
}

const versionColumns = 'graph_id, version, committed_at, base_version, tx_id, owner, note';

interface ChainRow {
  version: number;
  graph: string;
  patch: string | null;
  committed_at: number;
}

/** The committed graph, a workflow's derived version 0, or null when there is no such graph. */
export async function readLatest(db: AsyncSqlReader, graphId: string): Promise<StoredGraph | null> {
  const head = await committedVersion(db, graphId);
  if (head !== null) return readVersion(db, graphId, head);
  const workflowId = workflowOfId(graphId);
  if (workflowId === null) return null;
  const workflow = await db.get<{ name: string }>('SELECT name FROM workflows WHERE id = ?', [workflowId]);
  if (!workflow) return null;
  const tasks = await db.all<{ id: number; title: string; status: string }>(
    'SELECT id, title, status FROM tasks WHERE workflow_id = ? ORDER BY id',
    [workflowId],
  );
  const graph = tasksToGraph(
    tasks.map((t) => ({ id: taskNodeId(Number(t.id)), title: t.title, status: t.status, depends_on: [] })),
    { graph_id: graphId, graph_version: 0, name: workflow.name, metadata: { workflow_id: workflowId } },
  );
  return { graph, committed_at: null, stored: false };
}

/** The graph's last committed version, null when none was ever committed (a workflow's plan unchanged). */
export async function committedVersion(db: AsyncSqlReader, graphId: string): Promise<number | null> {
  const head = await db.get<{ version: number }>('SELECT version FROM plan_graphs WHERE graph_id = ?', [graphId]);
  return head ? Number(head.version) : null;
}

/**
 * One committed version, or null: its checkpoint and the patches up to it, read as one range
 * (a row from before v15 has no checkpoint and is read alone), then replayed.
 */
export async function readVersion(db: AsyncSqlReader, graphId: string, version: number): Promise<StoredGraph | null> {
  const rows = await db.all<ChainRow>(
    `SELECT version, graph, patch, committed_at FROM plan_graph_versions
     WHERE graph_id = ? AND version <= ?
       AND version >= COALESCE((SELECT checkpoint FROM plan_graph_versions WHERE graph_id = ? AND version = ?), ?)
     ORDER BY version`,
    [graphId, version, graphId, version, version],
  );
  const last = rows[rows.length - 1];
  if (!last || Number(last.version) !== version) return null;
  const first = rows[0];
  if (first.patch !== null)
    throw new Error(
      `plan graph '${graphId}' version ${version}: its chain does not start with a whole graph (version ${first.version})`,
    );
  const patches = rows.slice(1).map((r) => JSON.parse(r.patch ?? '[]') as JsonPatchOperation[]);
  const checkpoint = normaliseStored(JSON.parse(first.graph), {
    graph_id: graphId,
    graph_version: Number(first.version),
  });
  const graph = replayVersion(checkpoint, patches, { graph_id: graphId, graph_version: version });
  const chain = {
    checkpoint: Number(first.version),
    patches: patches.length,
    ops: patches.reduce((n, p) => n + p.length, 0),
  };
  return { graph, committed_at: Number(last.committed_at), stored: true, chain };
}

/** The version row with its change metadata (for sc://snapshots/<graph>/<tx>). */
export function readChange(db: AsyncSqlReader, graphId: string, txId: string): Promise<VersionRow | undefined> {
  return db.get<VersionRow>(`SELECT ${versionColumns} FROM plan_graph_versions WHERE graph_id = ? AND tx_id = ?`, [
    graphId,
    txId,
  ]);
}

/** An empty graph at version 0: what a stored graph starts from before its first commit. */
export function emptyGraph(graphId: string): StoredGraph {
  return {
    graph: normaliseGraph({ graph_id: graphId, graph_version: 0, nodes: [], edges: [] }),
    committed_at: null,
    stored: false,
  };
}

export interface CommitMeta {
  now: number;
  txId: string;
  owner: string | null;
  note: string | null;
  tool: string;
  correlation: Correlation;
  summary: Record<string, unknown>;
}

/**
 * Stores `graph` as the new committed version — a patch on `base`, or a checkpoint when the
 * chain is long enough (graphHistory.needsCheckpoint) — and appends a `graph.committed` event.
 * A graph written before v15 has its history converted first, in this transaction.
 */
export async function commitVersion(
  tx: AsyncSqlWriter,
  base: StoredGraph,
  graph: PlanGraph,
  meta: CommitMeta,
  limits: GraphLimits = defaultLimits,
): Promise<void> {
  const id = graph.graph_id;
  let chain = base.stored ? (base.chain ?? null) : null;
  if (base.stored) {
    const head = await tx.get<{ compacted: number | null }>('SELECT compacted FROM plan_graphs WHERE graph_id = ?', [
      id,
    ]);
    if (head && head.compacted === null) chain = await compactHistory(tx, id);
  }
  const patch = chain === null ? null : storedPatch(base.graph, graph);
  const whole = patch === null || needsCheckpoint(chain, patch.length, graph);
  const stored = whole ? JSON.stringify(graph) : JSON.stringify(patch);
  if (stored.length > limits.graphVersionBytes)
    throw limitReached(
      'graphVersionBytes',
      `plan graph '${id}' version ${graph.graph_version} would store ${stored.length} characters${whole ? '' : ' of changes'}, more than ${limits.graphVersionBytes}: split the graph, or change it in smaller steps`,
      { graph_id: id },
    );
  await tx.run(
    `INSERT INTO plan_graphs (graph_id, version, created_at, updated_at, compacted) VALUES (?, ?, ?, ?, 1)
     ON CONFLICT (graph_id) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at, compacted = 1`,
    [id, graph.graph_version, meta.now, meta.now],
  );
  await tx.run(
    `INSERT INTO plan_graph_versions (${versionColumns}, graph, patch, checkpoint) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      graph.graph_version,
      meta.now,
      base.graph.graph_version,
      meta.txId,
      meta.owner,
      meta.note,
      whole ? stored : '',
      whole ? null : stored,
      whole || chain === null ? graph.graph_version : chain.checkpoint,
    ],
  );
  await dropOldVersions(tx, id, graph.graph_version, limits.graphVersionsKept);
  const workflowId = workflowOfId(id);
  await appendCoordinationEvent(tx, {
    kind: 'graph.committed',
    now: meta.now,
    entity: 'graph',
    entityId: id,
    payload: {
      tool: meta.tool,
      graph_id: id,
      base_version: base.graph.graph_version,
      version: graph.graph_version,
      tx_id: meta.txId,
      owner: meta.owner,
      note: meta.note,
      ...meta.summary,
    },
    correlation: {
      ...meta.correlation,
      graph_id: id,
      run_id: meta.correlation.run_id ?? (workflowId !== null ? id : null),
    },
  });
}

/**
 * Keeps the newest `kept` versions of a graph: older ones go, except the chain a kept version is
 * replayed from (its checkpoint and the patches after it), so every kept version still reads.
 */
async function dropOldVersions(tx: AsyncSqlWriter, graphId: string, head: number, kept: number): Promise<void> {
  const oldestKept = head - kept + 1;
  if (oldestKept <= 1) return;
  const row = await tx.get<{ checkpoint: number | null }>(
    'SELECT checkpoint FROM plan_graph_versions WHERE graph_id = ? AND version = ?',
    [graphId, oldestKept],
  );
  const from = Math.min(oldestKept, row?.checkpoint == null ? oldestKept : Number(row.checkpoint));
  await tx.run('DELETE FROM plan_graph_versions WHERE graph_id = ? AND version < ?', [graphId, from]);
}

/**
 * Converts a graph's versions written before v15 (each a whole graph, no checkpoint) into
 * checkpoints and patches, oldest first, as graphHistory decides for new versions; returns the
 * chain of the newest version. Every version reads back exactly as before.
 */
export async function compactHistory(tx: AsyncSqlWriter, graphId: string): Promise<VersionChain | null> {
  const versions = await tx.all<{ version: number }>(
    'SELECT version FROM plan_graph_versions WHERE graph_id = ? AND checkpoint IS NULL ORDER BY version',
    [graphId],
  );
  let previous: PlanGraph | null = null;
  let chain: VersionChain | null = null;
  for (const { version: raw } of versions) {
    const version = Number(raw);
    const row = await tx.get<{ graph: string }>(
      'SELECT graph FROM plan_graph_versions WHERE graph_id = ? AND version = ?',
      [graphId, version],
    );
    const graph = normaliseStored(JSON.parse(row?.graph ?? ''), { graph_id: graphId, graph_version: version });
    const patch = previous !== null && previous.graph_version === version - 1 ? storedPatch(previous, graph) : null;
    if (patch === null || needsCheckpoint(chain, patch.length, graph)) {
      await tx.run('UPDATE plan_graph_versions SET checkpoint = ? WHERE graph_id = ? AND version = ?', [
        version,
        graphId,
        version,
      ]);
      chain = { checkpoint: version, patches: 0, ops: 0 };
    } else if (chain !== null) {
      await tx.run(
        "UPDATE plan_graph_versions SET graph = '', patch = ?, checkpoint = ? WHERE graph_id = ? AND version = ?",
        [JSON.stringify(patch), chain.checkpoint, graphId, version],
      );
      chain = { checkpoint: chain.checkpoint, patches: chain.patches + 1, ops: chain.ops + patch.length };
    }
    previous = { ...graph, graph_version: version };
  }
  await tx.run('UPDATE plan_graphs SET compacted = 1 WHERE graph_id = ?', [graphId]);
  // Versions written after v15 (none before the first conversion) continue the newest chain.
  return chain;
}

interface LockRow {
  graph_id: string;
  lock_id: string;
  holder: string;
  acquired_at: number;
  refreshed_at: number;
  expires_at: number;
}

function toLock(row: LockRow | undefined): GraphLock | null {
  if (!row) return null;
  const expires = Number(row.expires_at);
  const refreshed = Number(row.refreshed_at);
  return {
    graph_id: row.graph_id,
    lock_id: row.lock_id,
    holder: row.holder,
    acquired_at: Number(row.acquired_at),
    refreshed_at: refreshed,
    expires_at: expires,
    ttl_ms: expires - refreshed,
  };
}

const lockColumns = 'graph_id, lock_id, holder, acquired_at, refreshed_at, expires_at';

export async function readLock(db: AsyncSqlReader, graphId: string): Promise<GraphLock | null> {
  return toLock(await db.get<LockRow>(`SELECT ${lockColumns} FROM plan_graph_locks WHERE graph_id = ?`, [graphId]));
}

export async function readLockById(db: AsyncSqlReader, lockId: string): Promise<GraphLock | null> {
  return toLock(await db.get<LockRow>(`SELECT ${lockColumns} FROM plan_graph_locks WHERE lock_id = ?`, [lockId]));
}

export async function storeLock(tx: AsyncSqlWriter, lock: GraphLock): Promise<void> {
  await tx.run(
    `INSERT INTO plan_graph_locks (${lockColumns}) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (graph_id) DO UPDATE SET lock_id = excluded.lock_id, holder = excluded.holder, acquired_at = excluded.acquired_at,
       refreshed_at = excluded.refreshed_at, expires_at = excluded.expires_at`,
    [
      lock.graph_id,
      lock.lock_id,
      lock.holder,
      lock.acquired_at,
      lock.refreshed_at,
      lock.expires_at ?? lock.refreshed_at,
    ],
  );
}

export async function deleteLock(tx: AsyncSqlWriter, lockId: string): Promise<void> {
  await tx.run('DELETE FROM plan_graph_locks WHERE lock_id = ?', [lockId]);
}

/** Graph ids with a committed version, in id order (for resources_list). */
export function listGraphs(
  db: AsyncSqlReader,
): Promise<Array<{ graph_id: string; version: number; updated_at: number }>> {
  return db.all('SELECT graph_id, version, updated_at FROM plan_graphs ORDER BY graph_id');
}

/** Every committed version of every graph (id, version, commit time, tx), for resources_list. */
export function listVersions(
  db: AsyncSqlReader,
): Promise<Array<{ graph_id: string; version: number; committed_at: number; tx_id: string | null }>> {
  return db.all('SELECT graph_id, version, committed_at, tx_id FROM plan_graph_versions ORDER BY graph_id, version');
}
