import type { AsyncSqlReader, AsyncSqlWriter } from '../../../ports/store';
import { normaliseStored } from '../planGraph';
import type { PlanGraph } from '../planGraph';
import type { GraphTransaction } from './graphTransactions';

/**
 * Open graph transactions in the store (plan_graph_transactions), as plain statements over the
 * asynchronous port so they run on both engines. Each row holds the graph the transaction began
 * on and its working copy, as whole JSON graphs.
 */
interface TransactionRow {
  tx_id: string;
  graph_id: string;
  base_version: number;
  owner: string | null;
  note: string | null;
  base_graph: string;
  working_graph: string;
  applies: number;
  started_at: number;
  refreshed_at: number;
  expires_at: number;
  ttl_ms: number;
}

const columns =
  'tx_id, graph_id, base_version, owner, note, base_graph, working_graph, applies, started_at, refreshed_at, expires_at, ttl_ms';

function graphOf(text: string, graphId: string, version: number): PlanGraph {
  return normaliseStored(JSON.parse(text), { graph_id: graphId, graph_version: version });
}

function toTransaction(row: TransactionRow): GraphTransaction {
  const version = Number(row.base_version);
  return {
    tx_id: row.tx_id,
    graph_id: row.graph_id,
    base_version: version,
    owner: row.owner,
    note: row.note,
    base: graphOf(row.base_graph, row.graph_id, version),
    working: graphOf(row.working_graph, row.graph_id, version),
    applies: Number(row.applies),
    started_at: Number(row.started_at),
    refreshed_at: Number(row.refreshed_at),
    expires_at: Number(row.expires_at),
    ttl_ms: Number(row.ttl_ms),
  };
}

export async function readTransaction(db: AsyncSqlReader, txId: string): Promise<GraphTransaction | null> {
  const row = await db.get<TransactionRow>(`SELECT ${columns} FROM plan_graph_transactions WHERE tx_id = ?`, [txId]);
  return row ? toTransaction(row) : null;
}

/** Who has a transaction open on a graph at `now`: owner, id and lifetime (not the graphs). */
export async function openTransactions(
  db: AsyncSqlReader,
  graphId: string,
  now: number,
): Promise<
  Array<Pick<GraphTransaction, 'tx_id' | 'graph_id' | 'owner' | 'expires_at' | 'base_version' | 'started_at'>>
> {
  const rows = await db.all<{
    tx_id: string;
    graph_id: string;
    owner: string | null;
    expires_at: number;
    base_version: number;
    started_at: number;
  }>(
    `SELECT tx_id, graph_id, owner, expires_at, base_version, started_at FROM plan_graph_transactions
      WHERE graph_id = ? AND expires_at > ? ORDER BY started_at, tx_id`,
    [graphId, now],
  );
  return rows.map((r) => ({
    tx_id: r.tx_id,
    graph_id: r.graph_id,
    owner: r.owner,
    expires_at: Number(r.expires_at),
    base_version: Number(r.base_version),
    started_at: Number(r.started_at),
  }));
}

export async function insertTransaction(tx: AsyncSqlWriter, t: GraphTransaction): Promise<void> {
  await tx.run(`INSERT INTO plan_graph_transactions (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
    t.tx_id,
    t.graph_id,
    t.base_version,
    t.owner,
    t.note,
    JSON.stringify(t.base),
    JSON.stringify(t.working),
    t.applies,
    t.started_at,
    t.refreshed_at,
    t.expires_at,
    t.ttl_ms,
  ]);
}

export async function updateWorkingCopy(
  tx: AsyncSqlWriter,
  t: Pick<GraphTransaction, 'tx_id' | 'working' | 'applies' | 'refreshed_at' | 'expires_at'>,
): Promise<void> {
  await tx.run(
    'UPDATE plan_graph_transactions SET working_graph = ?, applies = ?, refreshed_at = ?, expires_at = ? WHERE tx_id = ?',
    [JSON.stringify(t.working), t.applies, t.refreshed_at, t.expires_at, t.tx_id],
  );
}

export async function deleteTransaction(tx: AsyncSqlWriter, txId: string): Promise<void> {
  await tx.run('DELETE FROM plan_graph_transactions WHERE tx_id = ?', [txId]);
}

/** Removes up to `limit` transactions that lapsed before `before`; returns what they were. */
export async function removeLapsedTransactions(
  tx: AsyncSqlWriter,
  before: number,
  limit = 100,
): Promise<Array<{ tx_id: string; graph_id: string; owner: string | null; expires_at: number }>> {
  const rows = await tx.all<{ tx_id: string; graph_id: string; owner: string | null; expires_at: number }>(
    'SELECT tx_id, graph_id, owner, expires_at FROM plan_graph_transactions WHERE expires_at <= ? ORDER BY expires_at, tx_id LIMIT ?',
    [before, limit],
  );
  for (const r of rows) await deleteTransaction(tx, r.tx_id);
  return rows.map((r) => ({ ...r, expires_at: Number(r.expires_at) }));
}
