/**
 * v11: scheduling (issue 12). Times are epoch milliseconds.
 * - stig_points: the stigmergy field, one row per (node, type) mark; `task_id` is set for the
 *   marks of a ledger task (`scope:task-12`, `changed:task-12`) so they go when the task ends;
 *   stig_clock: one row whose version every change of stig_points bumps.
 * - cnp_calls: contract-net calls; the whole call as JSON in `call`, with the columns the
 *   scheduler filters on (status, task, awarded agent, the scope the task will write).
 * - cnp_watcher: the one row of the watcher that keeps open calls in step with the field.
 * - kg_triples: the knowledge graph (the id is the insertion order); kg_feeds: which ledger
 *   records (finished workflows) were turned into triples, and at which state.
 */
export const v11Scheduling: readonly string[] = [
  `CREATE TABLE stig_points (
    node_id TEXT NOT NULL,
    type TEXT NOT NULL,
    intensity REAL NOT NULL,
    updated_at INTEGER NOT NULL,
    task_id INTEGER,
    PRIMARY KEY (node_id, type)
  )`,
  'CREATE INDEX stig_points_by_task ON stig_points(task_id)',
  // Bumped by every write that changes stig_points: a process reuses the marks it read while it is unchanged.
  `CREATE TABLE stig_clock (
    id INTEGER PRIMARY KEY,
    version INTEGER NOT NULL
  )`,
  `CREATE TABLE cnp_calls (
    call_id TEXT PRIMARY KEY,
    task_id INTEGER NOT NULL,
    status TEXT NOT NULL,
    agent_id TEXT,
    scope TEXT NOT NULL DEFAULT '[]',
    announced_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    call TEXT NOT NULL
  )`,
  'CREATE INDEX cnp_calls_by_status ON cnp_calls(status, announced_at)',
  'CREATE INDEX cnp_calls_by_task ON cnp_calls(task_id)',
  `CREATE TABLE cnp_watcher (
    id INTEGER PRIMARY KEY,
    state TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  )`,
  `CREATE TABLE kg_triples (
    id INTEGER PRIMARY KEY,
    subject TEXT NOT NULL,
    predicate TEXT NOT NULL,
    object TEXT NOT NULL,
    source TEXT,
    provenance TEXT NOT NULL DEFAULT '[]',
    confidence REAL NOT NULL,
    inserted_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    revision INTEGER NOT NULL DEFAULT 0,
    UNIQUE (subject, predicate, object)
  )`,
  'CREATE INDEX kg_triples_by_predicate ON kg_triples(predicate, object)',
  `CREATE TABLE kg_feeds (
    source_key TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    fed_at INTEGER NOT NULL
  )`,
];
