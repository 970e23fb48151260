/**
 * v10: child runtimes (the child_* tools of the orchestrator family). One row per child, written
 * by the server process that started it and read by every other one: what runs, where, its role,
 * limits, correlation ids, which process owns it, and how it ended. Ids are chosen by the caller
 * and never reused. Times are epoch milliseconds; args, limits and metadata are JSON text.
 */
export const v10Children: readonly string[] = [
  `CREATE TABLE children (
    child_id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    program TEXT NOT NULL,
    args TEXT NOT NULL DEFAULT '[]',
    workdir TEXT NOT NULL,
    role TEXT,
    limits TEXT NOT NULL DEFAULT '{}',
    metadata TEXT NOT NULL DEFAULT '{}',
    manifest_path TEXT NOT NULL,
    log_path TEXT NOT NULL,
    state TEXT NOT NULL,
    pid INTEGER,
    owner_pid INTEGER NOT NULL,
    owner_host TEXT NOT NULL,
    messages_sent INTEGER NOT NULL DEFAULT 0,
    run_id TEXT,
    op_id TEXT,
    job_id TEXT,
    graph_id TEXT,
    node_id TEXT,
    error TEXT,
    created_at INTEGER NOT NULL,
    started_at INTEGER,
    attached_at INTEGER,
    updated_at INTEGER NOT NULL,
    ended_at INTEGER,
    exit_code INTEGER,
    signal TEXT,
    limit_hit TEXT,
    stopped INTEGER NOT NULL DEFAULT 0
  )`,
  'CREATE INDEX children_by_state ON children(state, created_at)',
];
