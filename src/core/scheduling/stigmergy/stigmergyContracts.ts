import { z } from 'zod';

/**
 * Inputs and results of the stigmergy tools (`stig_mark`, `stig_batch`, `stig_decay`,
 * `stig_snapshot`): marks on the files, folders and write scopes agents are working on, which
 * fade with time. Names and bounds are the orchestrator seed's; `limit`, `truncated`,
 * `pointCount` and `nodeCount` are ours (pages for large fields).
 */

const nodeId = z
  .string()
  .trim()
  .min(1)
  .max(1000)
  .describe(
    'What is marked: a workspace path (file or folder) or a write-scope glob, e.g. "src/auth/login.ts" or "src/auth/**"',
  );
const markType = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe(
    'Kind of mark, case-insensitive, e.g. "scope:task-12" (the areas of a running task) or "changed:task-12" (a file it changed)',
  );
const intensity = z
  .number()
  .positive()
  .max(10_000)
  .describe('How much to add (greater than 0); marks on the same node and type accumulate');
const timestamp = (what: string) => z.number().int().nonnegative().describe(`${what} (milliseconds since the epoch)`);

/** One mark: node, type, intensity. */
export const stigMarkEntry = z.strictObject({ node_id: nodeId, type: markType, intensity });

/** `stig_mark`: add one mark. */
export const stigMarkInput = stigMarkEntry;

/** `stig_batch`: add up to 200 marks as one. */
export const stigBatchInput = z.strictObject({
  entries: z
    .array(stigMarkEntry)
    .min(1)
    .max(200)
    .describe('Marks applied as one: if one entry is invalid, none is applied and the field stays as it was'),
});

/** `stig_decay`: fade every mark by a half-life. */
export const stigDecayInput = z.strictObject({
  half_life_ms: z
    .number()
    .int()
    .positive()
    .max(86_400_000)
    .describe(
      'Half-life in milliseconds: every mark is halved for each half-life since it was last updated; marks that become negligible disappear',
    ),
});

/** `stig_snapshot`: the most intense part of the field. */
export const stigSnapshotInput = z.strictObject({
  limit: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .describe('Most intense points, nodes and heatmap cells to return'),
});

const point = z.strictObject({
  node_id: z.string().describe('Marked path or glob'),
  type: z.string().describe('Kind of mark (lower case)'),
  intensity: z.number().nonnegative().describe('Current intensity (0 = the mark evaporated or was removed)'),
  updated_at: timestamp('Last change of this mark'),
});

const nodeTotal = z.strictObject({
  node_id: z.string().describe('Marked path or glob'),
  intensity: z.number().nonnegative().describe('Sum of every mark on the node, capped at the maximum intensity'),
  updated_at: timestamp('Last change of a mark on the node'),
});

const change = z.strictObject({
  point: point.describe('The mark after the change'),
  node_total: nodeTotal.describe('The node after the change'),
});

/** Bounds of the field (also what contract-net calls carry). */
export const pheromoneBounds = z.strictObject({
  min_intensity: z.number().nonnegative().describe('Lower bound used when normalising'),
  max_intensity: z.number().positive().nullable().describe('Upper bound of a mark; null = unbounded'),
  normalisation_ceiling: z
    .number()
    .nonnegative()
    .describe('Intensity that normalises to 1: the maximum if fixed, else the highest node total'),
});

const summaryRow = z.strictObject({
  label: z.string().describe('Row label: "Min intensity", "Max intensity" or "Normalisation ceiling"'),
  value: z.string().describe('Formatted value (at most three decimals, ∞ for no maximum)'),
  tooltip: z.string().nullable().describe('What the value means'),
});

const heatmapCell = z.strictObject({
  node_id: z.string().describe('Marked path or glob'),
  total_intensity: z.number().nonnegative().describe('Sum of the marks on the node'),
  normalised: z.number().min(0).max(1).describe('Total mapped onto 0..1 between the minimum and the ceiling'),
  updated_at: timestamp('Last change on the node'),
  points: z
    .array(
      z.strictObject({
        type: z.string().describe('Kind of mark'),
        intensity: z.number().nonnegative().describe('Intensity of this mark'),
        normalised: z.number().min(0).max(1).describe('Intensity mapped onto 0..1'),
        updated_at: timestamp('Last change of this mark'),
      }),
    )
    .describe('Marks on the node, most intense first'),
});

/** `stig_mark`: the mark and its node after the deposit. */
export const stigMarkResult = z.strictObject({
  point: point.describe('The mark after the deposit'),
  node_total: nodeTotal.describe('The node after the deposit'),
});

/** `stig_batch`: one change per entry. */
export const stigBatchResult = z.strictObject({
  changes: z.array(change).describe('One change per entry, in entry order'),
});

/** `stig_decay`: every mark that changed. */
export const stigDecayResult = z.strictObject({
  changes: z.array(change).describe('Every mark that decayed or evaporated, by node then type'),
});

/** `stig_snapshot`: points, totals, heatmap, bounds and summary rows. */
export const stigSnapshotResult = z.strictObject({
  generated_at: timestamp('When the snapshot was taken'),
  points: z.array(point).describe('Marks, most intense first'),
  totals: z.array(nodeTotal).describe('Nodes, most marked first'),
  heatmap: z
    .strictObject({
      min_intensity: z.number().nonnegative().describe('Value that normalises to 0'),
      max_intensity: z.number().nonnegative().describe('Value that normalises to 1 (the normalisation ceiling)'),
      cells: z.array(heatmapCell).describe('One cell per node, most marked first'),
      bounds: pheromoneBounds.describe('Bounds the cells are normalised with'),
      bounds_tooltip: z.string().describe('Ready-made tooltip, e.g. "Min 0 • Max ∞ • Ceiling 3"'),
    })
    .describe('The field as a heatmap'),
  pheromone_bounds: pheromoneBounds.describe('Current bounds of the field'),
  summary: z
    .strictObject({
      bounds: pheromoneBounds.describe('Same as pheromone_bounds'),
      rows: z.array(summaryRow).describe('Ready-formatted Min / Max / Ceiling rows'),
      tooltip: z.string().describe('The bounds on one line'),
    })
    .describe('Bounds ready to show'),
  truncated: z.boolean().describe('True when limit cut the lists'),
  pointCount: z.number().int().nonnegative().describe('Marks in the whole field'),
  nodeCount: z.number().int().nonnegative().describe('Marked nodes in the whole field'),
});

export type StigMarkInput = z.infer<typeof stigMarkInput>;
export type StigBatchInput = z.infer<typeof stigBatchInput>;
export type StigDecayInput = z.infer<typeof stigDecayInput>;
export type StigSnapshotInput = z.infer<typeof stigSnapshotInput>;
export type StigMarkResult = z.infer<typeof stigMarkResult>;
export type StigBatchResult = z.infer<typeof stigBatchResult>;
export type StigDecayResult = z.infer<typeof stigDecayResult>;
export type StigSnapshotResult = z.infer<typeof stigSnapshotResult>;
