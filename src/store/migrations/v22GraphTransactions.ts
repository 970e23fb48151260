/**
 * v22: transactions on a stored plan graph (tx_begin, tx_apply, tx_commit, tx_rollback). A row is
 * an open transaction: the graph it began on and its working copy (whole JSON graphs), who owns it
 * and until when it lives without use. Commit and rollback delete the row; a lapsed row goes with
 * a later write (core/coordination/plans/transactions/).
 */
export const v22GraphTransactions: readonly string[] = [
  `CREATE TABLE plan_graph_transactions (
    tx_id TEXT PRIMARY KEY,
    graph_id TEXT NOT NULL,
    base_version INTEGER NOT NULL,
    owner TEXT,
    note TEXT,
    base_graph TEXT NOT NULL,
    working_graph TEXT NOT NULL,
    applies INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    refreshed_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    ttl_ms INTEGER NOT NULL
  )`,
  'CREATE INDEX plan_graph_transactions_by_graph ON plan_graph_transactions(graph_id, expires_at)',
  'CREATE INDEX plan_graph_transactions_by_expiry ON plan_graph_transactions(expires_at)',
];
