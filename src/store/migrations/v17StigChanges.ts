/**
 * v17: stig_changes (issue 14) — which nodes of the stigmergy field each stig_clock version
 * changed, written by the same transaction that bumps the clock (stigmergyStore.bumpClock). A
 * process that keeps the Explorer's pressure roll-up reads only the marks of those nodes after a
 * change instead of every mark (stigmergyPressure.ts). `node_id` '' stands for every node (a
 * decay, a write that did not say). The newest 1,024 versions are kept; a reader further behind,
 * or one that finds a version without its rows (written before this version), reads everything.
 */
export const v17StigChanges: readonly string[] = [
  `CREATE TABLE stig_changes (
    version INTEGER NOT NULL,
    node_id TEXT NOT NULL,
    PRIMARY KEY (version, node_id)
  )`,
];
