/**
 * v16: stig_nodes.loose (issue 12) — 1 for a node that is a glob or has no `/` (a bare word, a
 * root file), else 0. Contract-net bounds read only the marks that may overlap a call's areas:
 * nodes at, under or above the areas' literal folders (an index range on node_id) plus every
 * loose node, which the overlap rule decides in TypeScript. With the flag indexed, finding the
 * loose nodes no longer scans every mark (stigmergyQueries.areaCandidates). Writers set it with
 * each node row; rows from before this version are NULL, which reads count as loose until the
 * next write fills them in (stigmergyWeights.ensureBasis).
 */
export const v16StigLooseNodes: readonly string[] = [
  'ALTER TABLE stig_nodes ADD COLUMN loose INTEGER',
  'CREATE INDEX stig_nodes_by_loose ON stig_nodes(loose)',
];
