/**
 * v9: what the plan-graph tools and the event bus keep besides v6. A committed graph version
 * remembers the change that made it (the version it started from, an id, who made it and why:
 * the `sc://snapshots/<graph>/<tx>` resource). `event_retention` has one row saying up to which
 * seq coordination events may have been dropped by the retention rule, so a watcher whose
 * cursor is older is told so (seqs may have gaps on PostgreSQL, so the oldest kept seq alone
 * cannot say it).
 */
export const v9Events: readonly string[] = [
  'ALTER TABLE plan_graph_versions ADD COLUMN base_version INTEGER',
  'ALTER TABLE plan_graph_versions ADD COLUMN tx_id TEXT',
  'ALTER TABLE plan_graph_versions ADD COLUMN owner TEXT',
  'ALTER TABLE plan_graph_versions ADD COLUMN note TEXT',
  `CREATE TABLE event_retention (
    id INTEGER PRIMARY KEY,
    pruned_through INTEGER NOT NULL,
    pruned_at INTEGER NOT NULL
  )`,
  'CREATE INDEX events_by_child ON events(child_id, seq)',
];
