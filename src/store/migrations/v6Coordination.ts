/**
 * v6: the coordination substrate. Events carry correlation ids (run, operation, job, graph, node,
 * child; null where unknown). Times in the new tables are epoch milliseconds. The blackboard holds namespaced keys with a version and an optional
 * expiry. Idempotency keys remember a mutating call's fingerprint and result for a window. Plan
 * graphs keep every committed version and the locks held on them.
 */
export const v6Coordination: readonly string[] = [
  'ALTER TABLE events ADD COLUMN run_id TEXT',
  'ALTER TABLE events ADD COLUMN op_id TEXT',
  'ALTER TABLE events ADD COLUMN job_id TEXT',
  'ALTER TABLE events ADD COLUMN graph_id TEXT',
  'ALTER TABLE events ADD COLUMN node_id TEXT',
  'ALTER TABLE events ADD COLUMN child_id TEXT',
  'CREATE INDEX events_by_run ON events(run_id, seq)',
  'CREATE INDEX events_by_graph ON events(graph_id, seq)',
  `CREATE TABLE blackboard_entries (
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    tags TEXT NOT NULL DEFAULT '[]',
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    expires_at INTEGER,
    PRIMARY KEY (namespace, key)
  )`,
  'CREATE INDEX blackboard_by_expiry ON blackboard_entries(expires_at)',
  `CREATE TABLE idempotency_keys (
    tool TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    result TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (tool, key)
  )`,
  'CREATE INDEX idempotency_by_expiry ON idempotency_keys(expires_at)',
  `CREATE TABLE plan_graphs (
    graph_id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  )`,
  `CREATE TABLE plan_graph_versions (
    graph_id TEXT NOT NULL REFERENCES plan_graphs(graph_id),
    version INTEGER NOT NULL,
    graph TEXT NOT NULL,
    committed_at INTEGER NOT NULL,
    PRIMARY KEY (graph_id, version)
  )`,
  `CREATE TABLE plan_graph_locks (
    graph_id TEXT PRIMARY KEY,
    lock_id TEXT NOT NULL UNIQUE,
    holder TEXT NOT NULL,
    acquired_at INTEGER NOT NULL,
    refreshed_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  )`,
];
