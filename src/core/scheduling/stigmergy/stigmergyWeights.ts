import type { AsyncSqlReader, AsyncSqlWriter, SqlValue } from '../../ports/store';
import type { StigmergyConfig, StigPoint } from './stigmergyField';
import { looseNodeSql } from './stigmergyQueries';

/**
 * The field kept ranked in the store (migration v14): each mark's `weight` is its intensity
 * brought to a common time (the epoch), I × 2^((updated_at − epoch) / half-life). Every mark
 * fades by the same factor between two moments, so weights rank marks — and their sums
 * (stig_nodes) rank nodes — exactly as faded intensities do, at any `now`, without computing
 * anything per mark on a read. `gone_at` is when a mark fades under the evaporation floor, so
 * live marks and nodes are an index range. Writers keep both up to date; the values a tool
 * returns are still computed from the stored intensity and time (`fadeTo`).
 */

/** What the stored weights were computed with. */
export interface WeightBasis {
  epoch: number;
  halfLifeMs: number | null;
}

/** gone_at of a mark that never fades (no half-life): far beyond any clock, exact as a double and a bigint. */
export const neverGone = 8_000_000_000_000_000;
/** Rebase the epoch once marks are this many half-lives past it (weights stay far from overflow). */
const rebaseHalfLives = 400;
/** Marks this many half-lives older than the epoch weigh 0 (and PostgreSQL's power() never underflows). */
const minHalfLives = 1000;

/** A mark's weight and the moment it evaporates. */
export function markWeight(
  config: StigmergyConfig,
  basis: WeightBasis,
  p: { intensity: number; updated_at: number },
): { weight: number; gone_at: number } {
  const h = config.half_life_ms;
  if (h === null) return { weight: p.intensity, gone_at: neverGone };
  const weight =
    p.updated_at < basis.epoch - h * minHalfLives ? 0 : p.intensity * Math.pow(2, (p.updated_at - basis.epoch) / h);
  const gone_at =
    p.intensity <= config.evaporation_floor
      ? p.updated_at
      : Math.ceil(p.updated_at + (h * Math.log(p.intensity / config.evaporation_floor)) / Math.LN2);
  return { weight, gone_at };
}

/** The basis the stored weights use, or null when they cannot serve this configuration (not computed yet, another half-life). */
export async function readBasis(db: AsyncSqlReader, config: StigmergyConfig): Promise<WeightBasis | null> {
  const row = await db.get<{ epoch: number | null; half_life_ms: number | null }>(
    'SELECT epoch, half_life_ms FROM stig_clock WHERE id = 1',
  );
  if (!row || row.epoch === null || row.epoch === undefined) return null;
  const stored = row.half_life_ms === null ? null : Number(row.half_life_ms);
  if (stored !== config.half_life_ms) return null;
  return { epoch: Number(row.epoch), halfLifeMs: stored };
}

/**
 * The basis for a write at `now`: the stored one, or — when there is none, it serves another
 * half-life, or marks drift too far past its epoch, or `rebuild` — a new one at `now`, every
 * weight and node recomputed in SQL.
 */
export async function ensureBasis(
  tx: AsyncSqlWriter,
  config: StigmergyConfig,
  now: number,
  rebuild = false,
): Promise<WeightBasis> {
  const current = rebuild ? null : await readBasis(tx, config);
  const h = config.half_life_ms;
  if (current && (h === null || (now - current.epoch) / h < rebaseHalfLives)) {
    // Node rows written before v16 have no `loose` flag yet: filled in once, by the first write.
    if (await tx.get('SELECT node_id FROM stig_nodes WHERE loose IS NULL LIMIT 1'))
      await tx.run(`UPDATE stig_nodes SET loose = ${looseNodeSql} WHERE loose IS NULL`);
    return current;
  }
  const basis: WeightBasis = { epoch: now, halfLifeMs: h };
  await reweighAll(tx, config, basis);
  await tx.run(
    'INSERT INTO stig_clock (id, version, epoch, half_life_ms) VALUES (1, 1, ?, ?) ON CONFLICT (id) DO UPDATE SET epoch = excluded.epoch, half_life_ms = excluded.half_life_ms',
    [basis.epoch, h],
  );
  return basis;
}

/** Recomputes every mark's weight and gone_at, and every node, with `basis`. */
export async function reweighAll(tx: AsyncSqlWriter, config: StigmergyConfig, basis: WeightBasis): Promise<void> {
  const h = config.half_life_ms;
  if (h === null) {
    await tx.run('UPDATE stig_points SET weight = intensity, gone_at = ?', [neverGone]);
  } else {
    const dp = (sql: string) => `CAST(${sql} AS DOUBLE PRECISION)`;
    await tx.run(
      `UPDATE stig_points SET
         weight = CASE WHEN updated_at < ? THEN 0 ELSE intensity * power(${dp('2')}, (${dp('updated_at')} - ${dp('?')}) / ${dp('?')}) END,
         gone_at = CASE WHEN intensity <= ${dp('?')} THEN updated_at
                   ELSE CAST(ceil(updated_at + ${dp('?')} * ln(intensity / ${dp('?')}) / ln(${dp('2')})) AS BIGINT) END`,
      [
        Math.floor(basis.epoch - h * minHalfLives),
        basis.epoch,
        h,
        config.evaporation_floor,
        h,
        config.evaporation_floor,
      ],
    );
  }
  await tx.run('DELETE FROM stig_nodes');
  await tx.run(
    `INSERT INTO stig_nodes (node_id, weight, gone_at, loose) SELECT node_id, SUM(weight), MAX(gone_at), ${looseNodeSql} FROM stig_points GROUP BY node_id`,
  );
}

/** Recomputes the rows of some nodes from their marks (a node without marks goes). */
export async function refreshNodes(tx: AsyncSqlWriter, nodes: readonly string[]): Promise<void> {
  for (let i = 0; i < nodes.length; i += 200) {
    const slice = nodes.slice(i, i + 200);
    const marks = slice.map(() => '?').join(', ');
    await tx.run(`DELETE FROM stig_nodes WHERE node_id IN (${marks})`, slice);
    await tx.run(
      `INSERT INTO stig_nodes (node_id, weight, gone_at, loose) SELECT node_id, SUM(weight), MAX(gone_at), ${looseNodeSql} FROM stig_points WHERE node_id IN (${marks}) GROUP BY node_id`,
      slice,
    );
  }
}

/**
 * Does stig_nodes hold every stored node (with its `loose` flag)? Yes once the first write after
 * v14 computed a basis: from then on every write keeps the node rows of the marks it touches.
 */
export async function nodesKept(db: AsyncSqlReader): Promise<boolean> {
  const row = await db.get<{ epoch: number | null }>('SELECT epoch FROM stig_clock WHERE id = 1');
  return row !== undefined && row.epoch !== null && row.epoch !== undefined;
}

/** Can the ranked store answer for this configuration now? (weights computed for it, no bound, no unpurged marks of ended tasks) */
export async function rankedBasis(db: AsyncSqlReader, config: StigmergyConfig): Promise<WeightBasis | null> {
  if (config.max_intensity !== null) return null; // a bound ties clamped totals: rank them by node id in SQL instead
  const basis = await readBasis(db, config);
  if (!basis) return null;
  const ended = await db.get<{ id: number }>(
    "SELECT t.id FROM tasks t WHERE t.status IN ('done', 'failed', 'cancelled') AND EXISTS (SELECT 1 FROM stig_points p WHERE p.task_id = t.id) LIMIT 1",
  );
  return ended ? null : basis;
}

// `+gone_at` keeps the planner on the (weight DESC, …) index, walked in order until `limit` live rows are found.

/** The `limit` heaviest live nodes, heaviest first. */
export async function rankedNodes(db: AsyncSqlReader, now: number, limit: number): Promise<string[]> {
  const rows = await db.all<{ node_id: string }>(
    'SELECT node_id FROM stig_nodes WHERE +gone_at > ? ORDER BY weight DESC, node_id LIMIT ?',
    [now, limit],
  );
  return rows.map((r) => r.node_id);
}

/** The `limit` heaviest live marks (raw rows: callers fade them). */
export async function rankedMarks(
  db: AsyncSqlReader,
  now: number,
  limit: number,
): Promise<Pick<StigPoint, 'node_id' | 'type' | 'intensity' | 'updated_at'>[]> {
  return db.all(
    'SELECT node_id, type, intensity, updated_at FROM stig_points WHERE +gone_at > ? ORDER BY weight DESC, node_id, type LIMIT ?',
    [now, limit],
  );
}

/** How many marks and nodes are live at `now`. */
export async function liveCounts(db: AsyncSqlReader, now: number): Promise<{ points: number; nodes: number }> {
  const params: SqlValue[] = [now];
  const points = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM stig_points WHERE gone_at > ?', params);
  const nodes = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM stig_nodes WHERE gone_at > ?', params);
  return { points: Number(points?.n ?? 0), nodes: Number(nodes?.n ?? 0) };
}
