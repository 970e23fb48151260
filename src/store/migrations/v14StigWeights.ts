/**
 * v14: the stigmergy field kept ranked in the store (issue 12), so stig_snapshot and the
 * contract-net watcher read the top of the field through indexes instead of fading and summing
 * every mark on each call.
 * - stig_points.weight: the mark's intensity brought to a common time, I × 2^((updated_at − epoch)
 *   / half-life); every mark fades by the same factor, so weights order marks (and their sums
 *   order nodes) exactly as their faded intensities do. stig_points.gone_at: when the mark fades
 *   under the evaporation floor (epoch ms).
 * - stig_nodes: per node, the sum of its marks' weights and the last gone_at.
 * - stig_clock.epoch / half_life_ms: what the weights were computed with; NULL until the first
 *   write after this migration computes them (reads fade marks in SQL until then).
 */
export const v14StigWeights: readonly string[] = [
  'ALTER TABLE stig_points ADD COLUMN weight REAL',
  'ALTER TABLE stig_points ADD COLUMN gone_at INTEGER',
  'CREATE INDEX stig_points_by_weight ON stig_points(weight DESC, node_id, type)',
  'CREATE INDEX stig_points_by_gone ON stig_points(gone_at)',
  `CREATE TABLE stig_nodes (
    node_id TEXT PRIMARY KEY,
    weight REAL NOT NULL,
    gone_at INTEGER NOT NULL
  )`,
  'CREATE INDEX stig_nodes_by_weight ON stig_nodes(weight DESC, node_id)',
  'CREATE INDEX stig_nodes_by_gone ON stig_nodes(gone_at)',
  'ALTER TABLE stig_clock ADD COLUMN epoch INTEGER',
  'ALTER TABLE stig_clock ADD COLUMN half_life_ms REAL',
];
