import { clampIntensity, compareText, nodeSums, pointValues } from './stigmergyField';
import type { StigmergyConfig, StigmergyField, StigNodeTotal, StigPoint } from './stigmergyField';

/**
 * What `stig_snapshot` returns: points, node totals, `pheromone_bounds`, a `summary` of
 * ready-formatted rows and a `heatmap` whose cells carry normalised values and a
 * `bounds_tooltip`. Formulas and formats follow the public implementation
 * (src/coord/stigmergy.ts, src/tools/coordTools.ts): the normalisation ceiling is the fixed
 * maximum when there is one, else the highest node total (min + 1 on an empty field); a value
 * normalises to (v − min) / (ceiling − min) clamped to [0, 1]; bounds print with at most three
 * decimals and ∞ for "no maximum"; intensities are rounded to six decimals.
 */

/** Bounds as tools and events carry them (`max_intensity: null` = unbounded). */
export interface PheromoneBounds {
  min_intensity: number;
  max_intensity: number | null;
  normalisation_ceiling: number;
}

/** One ready-to-show row of the summary (Min / Max / Ceiling). */
export interface SummaryRow {
  label: string;
  value: string;
  tooltip: string | null;
}

/** One mark of a heatmap cell. */
export interface HeatmapPoint {
  type: string;
  intensity: number;
  normalised: number;
  updated_at: number;
}

/** One node of the heatmap. */
export interface HeatmapCell {
  node_id: string;
  total_intensity: number;
  normalised: number;
  updated_at: number;
  points: HeatmapPoint[];
}

/** The snapshot of a field, in `stig_snapshot`'s result shape. */
export interface StigSnapshot {
  generated_at: number;
  points: StigPoint[];
  totals: StigNodeTotal[];
  heatmap: {
    min_intensity: number;
    max_intensity: number;
    cells: HeatmapCell[];
    bounds: PheromoneBounds;
    bounds_tooltip: string;
  };
  pheromone_bounds: PheromoneBounds;
  summary: { bounds: PheromoneBounds; rows: SummaryRow[]; tooltip: string };
  /** Our addition: true when `limit` cut points, totals or cells. */
  truncated: boolean;
  /** Our addition: points and nodes in the whole field. */
  pointCount: number;
  nodeCount: number;
}

/** The field's bounds: its configuration plus the ceiling it currently normalises to. */
export function fieldBounds(field: StigmergyField): PheromoneBounds {
  let observed = field.config.min_intensity;
  for (const [, sum] of nodeSums(field)) observed = Math.max(observed, clampIntensity(field.config, sum.sum));
  return boundsWithCeiling(field.config, observed);
}

/** Bounds whose ceiling is `observed` (min + 1 when nothing rises above min), or the fixed maximum. */
export function boundsWithCeiling(config: StigmergyConfig, observed: number): PheromoneBounds {
  const ceiling = config.max_intensity ?? (observed > config.min_intensity ? observed : config.min_intensity + 1);
  return { min_intensity: config.min_intensity, max_intensity: config.max_intensity, normalisation_ceiling: ceiling };
}

/** Maps an intensity onto [0, 1] between the minimum and the ceiling. */
export function normaliseIntensity(value: number, bounds: PheromoneBounds): number {
  const span = bounds.normalisation_ceiling - bounds.min_intensity;
  if (!Number.isFinite(span) || span <= 0) return value > bounds.min_intensity ? 1 : 0;
  if (value <= bounds.min_intensity) return 0;
  if (value >= bounds.normalisation_ceiling) return 1;
  return (value - bounds.min_intensity) / span;
}

/** A bound for display: at most three decimals, `∞` for no bound. */
export function formatBound(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '∞';
  const rounded = Number(value.toFixed(3));
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/** The heatmap tooltip, e.g. `Min 0.25 • Max 5 • Ceiling 5`. */
export function boundsTooltip(bounds: PheromoneBounds): string {
  return `Min ${formatBound(bounds.min_intensity)} • Max ${formatBound(bounds.max_intensity)} • Ceiling ${formatBound(bounds.normalisation_ceiling)}`;
}

/** The summary rows dashboards and the board show as they are. */
export function summaryRows(bounds: PheromoneBounds | null): SummaryRow[] {
  if (!bounds) {
    const tooltip = 'Bounds are not available yet: the field has not been initialised.';
    return [
      { label: 'Min intensity', value: 'n/a', tooltip },
      { label: 'Max intensity', value: 'n/a', tooltip },
      { label: 'Normalisation ceiling', value: 'n/a', tooltip },
    ];
  }
  return [
    {
      label: 'Min intensity',
      value: formatBound(bounds.min_intensity),
      tooltip: 'Lower bound applied before normalising (keeps values from going negative).',
    },
    {
      label: 'Max intensity',
      value: formatBound(bounds.max_intensity),
      tooltip: 'Upper bound applied before normalising (∞ means no fixed ceiling).',
    },
    {
      label: 'Normalisation ceiling',
      value: formatBound(bounds.normalisation_ceiling),
      tooltip: 'Ceiling used to compute the normalised value of heatmap cells.',
    },
  ];
}

/**
 * The snapshot at `now`: points and totals by intensity (highest first, then node id and type),
 * heatmap cells likewise, each list cut to `limit` when one is given (then only the top of each
 * list is selected, never the whole field sorted).
 */
export function snapshot(field: StigmergyField, now: number, limit?: number): StigSnapshot {
  const config = field.config;
  const all: StigNodeTotal[] = [];
  for (const [node_id, sum] of nodeSums(field))
    all.push({ node_id, intensity: clampIntensity(config, sum.sum), updated_at: sum.updated_at });
  const totals = top(all, byTotal, limit);
  const pointsOf = new Map<string, StigPoint[]>(totals.map((t) => [t.node_id, []]));
  for (const p of pointValues(field)) pointsOf.get(p.node_id)?.push(p);
  return assembleSnapshot(
    {
      bounds: fieldBounds(field),
      points: top(pointValues(field), byPoint, limit),
      totals,
      pointsOf,
      pointCount: field.points.size,
      nodeCount: field.sums.size,
    },
    now,
  );
}

/** What a snapshot is made of, whether read from a field in memory or aggregated by the store. */
export interface SnapshotParts {
  bounds: PheromoneBounds;
  /** The top points, sorted (byPoint). */
  points: StigPoint[];
  /** The top node totals (clamped), sorted (byTotal). */
  totals: StigNodeTotal[];
  /** The points of each node in `totals`. */
  pointsOf: ReadonlyMap<string, StigPoint[]>;
  pointCount: number;
  nodeCount: number;
}

/** The snapshot's result shape from its parts (rounding, normalising, tooltips). */
export function assembleSnapshot(parts: SnapshotParts, now: number): StigSnapshot {
  const { bounds, points, totals } = parts;
  const tooltip = boundsTooltip(bounds);
  const cells = totals.map((t) => ({
    node_id: t.node_id,
    total_intensity: round6(t.intensity),
    normalised: round6(normaliseIntensity(t.intensity, bounds)),
    updated_at: t.updated_at,
    points: [...(parts.pointsOf.get(t.node_id) ?? [])].sort(byPoint).map((p) => ({
      type: p.type,
      intensity: round6(p.intensity),
      normalised: round6(normaliseIntensity(p.intensity, bounds)),
      updated_at: p.updated_at,
    })),
  }));
  return {
    generated_at: now,
    points: points.map((p) => ({ ...p, intensity: round6(p.intensity) })),
    totals: totals.map((t) => ({ ...t, intensity: round6(t.intensity) })),
    heatmap: {
      min_intensity: round6(bounds.min_intensity),
      max_intensity: round6(bounds.normalisation_ceiling),
      cells,
      bounds,
      bounds_tooltip: tooltip,
    },
    pheromone_bounds: bounds,
    summary: { bounds, rows: summaryRows(bounds), tooltip },
    truncated: parts.pointCount > points.length || parts.nodeCount > totals.length,
    pointCount: parts.pointCount,
    nodeCount: parts.nodeCount,
  };
}

/** Node totals: highest first, then node id. */
export function byTotal(a: StigNodeTotal, b: StigNodeTotal): number {
  return b.intensity - a.intensity || compareText(a.node_id, b.node_id);
}

/** Points: most intense first, then node id and type. */
export function byPoint(a: StigPoint, b: StigPoint): number {
  return b.intensity - a.intensity || compareText(a.node_id, b.node_id) || compareText(a.type, b.type);
}

/** The first `k` items in `order` (all of them, sorted, without a k): O(n log k). */
export function top<T>(items: Iterable<T>, order: (a: T, b: T) => number, k?: number): T[] {
  if (k === undefined) return [...items].sort(order);
  const out: T[] = [];
  for (const item of items) {
    if (out.length === k && order(item, out[k - 1]) >= 0) continue;
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (order(item, out[mid]) < 0) hi = mid;
      else lo = mid + 1;
    }
    out.splice(lo, 0, item);
    if (out.length > k) out.pop();
  }
  return out;
}

/** Six decimals, as the tools serialise intensities. */
export function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
