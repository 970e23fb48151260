/**
 * v15: plan-graph versions stored as patches (issue 11; core/coordination/graphHistory.ts).
 * - plan_graph_versions.patch: on a patch row, the RFC 6902 operations (JSON) that turn the
 *   version before it into this one; NULL on a checkpoint row, whose `graph` holds the whole
 *   graph. A patch row's `graph` is '' (the column stays NOT NULL, which SQLite cannot relax
 *   without rebuilding the table).
 * - plan_graph_versions.checkpoint: the version of the checkpoint the row's chain replays from
 *   (the row's own version on a checkpoint). NULL on rows written before v15: each is a whole
 *   graph and reads as its own checkpoint.
 * - plan_graphs.compacted: 1 once the graph's rows from before v15 were converted into
 *   checkpoints and patches. The conversion needs the graph diff (TypeScript), so it is not a
 *   statement here: the first write to each graph after this migration converts that graph's
 *   history in the same transaction (graphStore.compactHistory), on either engine, and every
 *   reader reads both shapes in the meantime.
 */
export const v15GraphDiffs: readonly string[] = [
  'ALTER TABLE plan_graph_versions ADD COLUMN patch TEXT',
  'ALTER TABLE plan_graph_versions ADD COLUMN checkpoint INTEGER',
  'ALTER TABLE plan_graphs ADD COLUMN compacted INTEGER',
];
