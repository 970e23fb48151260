import type { AsyncSqlReader } from '../../ports/store';
import { clampIntensity, createField } from './stigmergyField';
import type { StigmergyConfig, StigmergyField, StigNodeTotal, StigPoint } from './stigmergyField';
import {
  areaCandidates,
  fadedPoints,
  fieldVersion,
  liveMarks,
  marksOfNodes,
  maxNodeTotal,
  topMarks,
  topNodes,
} from './stigmergyQueries';
import { liveCounts, nodesKept, rankedBasis, rankedMarks, rankedNodes } from './stigmergyWeights';
import { assembleSnapshot, boundsWithCeiling, byPoint, byTotal } from './stigmergySnapshot';
import type { PheromoneBounds, StigSnapshot } from './stigmergySnapshot';
import { endedTasks, toPoint } from './stigmergyStore';
import type { PointRow } from './stigmergyStore';

/**
 * The stigmergy field's reads inside the caller's read or write (StigmergyService calls them):
 * a limited stig_snapshot and the whole field's bounds from the ranked store or SQL aggregates,
 * the marks near some areas, and the stored marks kept per stig_clock version for `field()`.
 */

/**
 * stig_snapshot with a `limit`: node totals, counts and the top marks come from SQL (the ranked
 * store when it can serve), and only the marks of the returned nodes are read.
 */
export async function limitedSnapshot(
  db: AsyncSqlReader,
  config: StigmergyConfig,
  now: number,
  limit: number,
): Promise<StigSnapshot> {
  const basis = await rankedBasis(db, config);
  const top = basis ? await ranked(db, now, limit) : await topNodes(db, config, now, limit);
  const pointsOf = new Map<string, StigPoint[]>(top.nodes.map((n) => [n.node_id, []]));
  for (const p of await marksOfNodes(db, config, now, [...pointsOf.keys()])) pointsOf.get(p.node_id)?.push(p);
  const totals: StigNodeTotal[] = [];
  for (const [node_id, points] of pointsOf) {
    if (points.length === 0) continue;
    let sum = 0;
    let updated = 0;
    for (const p of points) {
      sum += p.intensity;
      updated = Math.max(updated, p.updated_at);
    }
    totals.push({ node_id, intensity: clampIntensity(config, sum), updated_at: updated });
  }
  totals.sort(byTotal);
  const points = (
    basis ? fadedPoints(config, await rankedMarks(db, now, limit), now) : await topMarks(db, config, now, limit)
  ).sort(byPoint);
  const bounds = boundsWithCeiling(
    config,
    Math.max(config.min_intensity, totals[0]?.intensity ?? config.min_intensity),
  );
  return assembleSnapshot(
    { bounds, points, totals, pointsOf, pointCount: top.pointCount, nodeCount: top.nodeCount },
    now,
  );
}

/** The bounds of the whole field (its highest node total as ceiling), aggregated by the store. */
export async function fieldBounds(db: AsyncSqlReader, config: StigmergyConfig, now: number): Promise<PheromoneBounds> {
  let highest: number;
  if (await rankedBasis(db, config)) {
    const [node] = await rankedNodes(db, now, 1);
    highest =
      node === undefined
        ? 0
        : clampIntensity(
            config,
            (await marksOfNodes(db, config, now, [node])).reduce((sum, p) => sum + p.intensity, 0),
          );
  } else {
    highest = await maxNodeTotal(db, config, now);
  }
  return boundsWithCeiling(config, Math.max(config.min_intensity, highest));
}

/** The top nodes and the counts from the ranked store (stigmergyWeights.ts). */
async function ranked(
  db: AsyncSqlReader,
  now: number,
  limit: number,
): Promise<{ nodes: { node_id: string }[]; pointCount: number; nodeCount: number }> {
  const counts = await liveCounts(db, now);
  return {
    nodes: (await rankedNodes(db, now, limit)).map((node_id) => ({ node_id })),
    pointCount: counts.points,
    nodeCount: counts.nodes,
  };
}

/** The live marks that may overlap some areas (areaCandidates), as a field. */
export async function fieldNear(
  db: AsyncSqlReader,
  config: StigmergyConfig,
  areas: readonly string[],
  now: number,
): Promise<StigmergyField> {
  return createField(config, await liveMarks(db, config, now, areaCandidates(areas, await nodesKept(db)) ?? undefined));
}

/**
 * The stored marks as last read and the stig_clock version they were read at: read again only
 * when stig_clock moved (another process or this one changed them); which of their tasks ended is
 * asked every time.
 */
export class StoredMarks {
  private cache: { version: number; points: { point: StigPoint; taskId: number | null }[]; taskIds: number[] } | null =
    null;

  /** The stored marks whose task did not end (not faded). */
  async live(db: AsyncSqlReader): Promise<StigPoint[]> {
    const version = await fieldVersion(db);
    if (!this.cache || this.cache.version !== version) {
      const rows = await db.all<PointRow & { task_id: number | null }>(
        'SELECT node_id, type, intensity, updated_at, task_id FROM stig_points',
      );
      const points = rows.map((r) => ({ point: toPoint(r), taskId: r.task_id === null ? null : Number(r.task_id) }));
      this.cache = {
        version,
        points,
        taskIds: [...new Set(points.flatMap((p) => (p.taskId === null ? [] : [p.taskId])))],
      };
    }
    const ended = await endedTasks(db, this.cache.taskIds);
    const cached = this.cache.points;
    return ended.size === 0
      ? cached.map((p) => p.point)
      : cached.filter((p) => p.taskId === null || !ended.has(p.taskId)).map((p) => p.point);
  }
}
