import { compareText, nodeTotal } from './stigmergyField';
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

export interface HeatmapPoint {
  type: string;
  intensity: number;
  normalised: number;
  updated_at: number;
}

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
  for (const id of field.sums.keys()) observed = Math.max(observed, nodeTotal(field, id)?.intensity ?? 0);
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
    { label: 'Min intensity', value: formatBound(bounds.min_intensity), tooltip: 'Lower bound applied before normalising (keeps values from going negative).' },
    { label: 'Max intensity', value: formatBound(bounds.max_intensity), tooltip: 'Upper bound applied before normalising (∞ means no fixed ceiling).' },
    { label: 'Normalisation ceiling', value: formatBound(bounds.normalisation_ceiling), tooltip: 'Ceiling used to compute the normalised value of heatmap cells.' },
  ];
}

/**
 * The snapshot at `now`: points and totals by intensity (highest first, then node id and type),
 * heatmap cells likewise, each list cut to `limit` when one is given.
 */
export function snapshot(field: StigmergyField, now: number, limit?: number): StigSnapshot {
  const bounds = fieldBounds(field);
  const tooltip = boundsTooltip(bounds);
  const points = [...field.points.values()].sort(
    (a, b) => b.intensity - a.intensity || compareText(a.node_id, b.node_id) || compareText(a.type, b.type),
  );
  const totals = [...field.sums.keys()]
    .map((id) => nodeTotal(field, id) as StigNodeTotal)
    .sort((a, b) => b.intensity - a.intensity || compareText(a.node_id, b.node_id));
  const cap = limit ?? Number.POSITIVE_INFINITY;
  const byNode = new Map<string, StigPoint[]>();
  for (const p of points) {
    const list = byNode.get(p.node_id);
    if (list) list.push(p);
    else byNode.set(p.node_id, [p]);
  }
  const cells = totals.slice(0, cap).map((t) => ({
    node_id: t.node_id,
    total_intensity: round6(t.intensity),
    normalised: round6(normaliseIntensity(t.intensity, bounds)),
    updated_at: t.updated_at,
    points: (byNode.get(t.node_id) ?? []).map((p) => ({
      type: p.type,
      intensity: round6(p.intensity),
      normalised: round6(normaliseIntensity(p.intensity, bounds)),
      updated_at: p.updated_at,
    })),
  }));
  return {
    generated_at: now,
    points: points.slice(0, cap).map((p) => ({ ...p, intensity: round6(p.intensity) })),
    totals: totals.slice(0, cap).map((t) => ({ ...t, intensity: round6(t.intensity) })),
    heatmap: {
      min_intensity: round6(bounds.min_intensity),
      max_intensity: round6(bounds.normalisation_ceiling),
      cells,
      bounds,
      bounds_tooltip: tooltip,
    },
    pheromone_bounds: bounds,
    summary: { bounds, rows: summaryRows(bounds), tooltip },
    truncated: points.length > cap || totals.length > cap,
    pointCount: points.length,
    nodeCount: totals.length,
  };
}

/** Six decimals, as the tools serialise intensities. */
export function round6(value: number): number {
  return Number(value.toFixed(6));
}
