/**
 * v18: usage_counters (issue 23) — counters several processes and machines share, kept in the
 * ledger so every server process (one per client) sees the same: wrong passkeys per connection and
 * per agent (the login throttle), characters written per agent or connection in the current window
 * (the write quota). `since` is when the count started, `updated_at` its last change (rows no
 * longer counting are removed by it).
 */
export const v18UsageCounters: readonly string[] = [
  `CREATE TABLE usage_counters (
    scope TEXT PRIMARY KEY,
    amount INTEGER NOT NULL,
    since INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  )`,
  'CREATE INDEX usage_counters_by_update ON usage_counters(updated_at)',
];
