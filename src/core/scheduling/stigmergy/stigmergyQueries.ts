import type { AsyncSqlReader, SqlValue } from '../../ports/store';
import { literalHead, shapeOf } from '../../tasks/scopePatterns';
import type { StigmergyConfig, StigPoint } from './stigmergyField';

/**
 * The stigmergy field read in SQL (both engines), so the tools never load every stored mark:
 * marks are faded to `now` inside the query (I × 0.5^((now − updated_at) / half-life), the same
 * formula as `StigmergyService.faded`), the marks of ended tasks are left out, marks faded to the
 * evaporation floor are dropped, and node totals, counts and the top of each list are aggregated
 * by the database. Callers recompute the intensities they return from the raw row with `fadeTo`,
 * so values are the ones the in-memory field gives.
 */

const finished = "('done', 'failed', 'cancelled')";
/** Past this many half-lives a mark counts as gone (PostgreSQL's power() refuses to underflow). */
const maxHalfLives = 1000;

/** A stored mark with its faded intensity (`d`). */
export interface LiveRow {
  node_id: string;
  type: string;
  intensity: number;
  updated_at: number;
  task_id: number | null;
  d: number;
}

/** A filter on stig_points put inside the live set (so an index on node_id can serve it). */
export interface RowFilter {
  where: string;
  params: SqlValue[];
}

/**
 * `FROM (live marks) live WHERE d > floor` with its parameters: append GROUP BY / ORDER BY.
 * `filter` narrows the stored rows before fading.
 */
export function liveFrom(
  config: StigmergyConfig,
  now: number,
  filter?: RowFilter,
): { sql: string; params: SqlValue[] } {
  const h = config.half_life_ms;
  const decayed =
    h === null
      ? { sql: 'intensity', params: [] as SqlValue[] }
      : {
          sql: `CASE WHEN updated_at >= ? THEN intensity WHEN updated_at < ? THEN 0
                ELSE intensity * power(CAST(0.5 AS DOUBLE PRECISION), (CAST(? AS DOUBLE PRECISION) - updated_at) / CAST(? AS DOUBLE PRECISION)) END`,
          params: [now, Math.floor(now - h * maxHalfLives), now, h],
        };
  const sql = `FROM (SELECT node_id, type, intensity, updated_at, task_id, ${decayed.sql} AS d FROM stig_points
      WHERE (task_id IS NULL OR task_id NOT IN (SELECT id FROM tasks WHERE status IN ${finished}))${filter ? ` AND (${filter.where})` : ''}) live
    WHERE d > ?`;
  return { sql, params: [...decayed.params, ...(filter?.params ?? []), config.evaporation_floor] };
}

/** A mark faded to `now` in TypeScript, exactly as the in-memory field fades it. */
export function fadeTo(config: StigmergyConfig, row: { intensity: number; updated_at: number }, now: number): number {
  const h = config.half_life_ms;
  const intensity = Number(row.intensity);
  const elapsed = now - Number(row.updated_at);
  return h !== null && elapsed > 0 ? intensity * Math.pow(0.5, elapsed / h) : intensity;
}

/** Rows as marks faded to now (dropping those at the floor), updated_at kept. */
export function fadedPoints(
  config: StigmergyConfig,
  rows: readonly { node_id: string; type: string; intensity: number; updated_at: number }[],
  now: number,
): StigPoint[] {
  const out: StigPoint[] = [];
  for (const r of rows) {
    const intensity = fadeTo(config, r, now);
    if (intensity > config.evaporation_floor)
      out.push({ node_id: r.node_id, type: r.type, intensity, updated_at: Number(r.updated_at) });
  }
  return out;
}

/** Every live mark (optionally narrowed by `filter`). */
export async function liveMarks(
  db: AsyncSqlReader,
  config: StigmergyConfig,
  now: number,
  filter?: RowFilter,
): Promise<StigPoint[]> {
  const from = liveFrom(config, now, filter);
  const rows = await db.all<LiveRow>(`SELECT node_id, type, intensity, updated_at ${from.sql}`, from.params);
  return fadedPoints(config, rows, now);
}

/** The field's version: stig_clock moves with every change of the stored marks (any process). */
export async function fieldVersion(db: AsyncSqlReader): Promise<number> {
  const row = await db.get<{ version: number }>('SELECT version FROM stig_clock WHERE id = 1');
  return Number(row?.version ?? 0);
}

/** The live marks of some tasks (`scope:task-N`, `changed:task-N`, by their type as the overlap rule reads them). */
export async function marksOfTasks(
  db: AsyncSqlReader,
  config: StigmergyConfig,
  now: number,
  taskKeys: readonly string[],
): Promise<StigPoint[]> {
  const types = taskKeys.flatMap((k) => [`scope:${k}`, `changed:${k}`]);
  const out: StigPoint[] = [];
  for (let i = 0; i < types.length; i += 500) {
    const slice = types.slice(i, i + 500);
    out.push(
      ...(await liveMarks(db, config, now, { where: `type IN (${slice.map(() => '?').join(', ')})`, params: slice })),
    );
  }
  return out;
}

/** A node total clamped to the field's maximum, as SQL (for ORDER BY), with its parameters. */
function clampedSum(config: StigmergyConfig): { sql: string; params: SqlValue[] } {
  if (config.max_intensity === null) return { sql: 'SUM(d)', params: [] };
  return {
    sql: 'CASE WHEN SUM(d) > CAST(? AS DOUBLE PRECISION) THEN CAST(? AS DOUBLE PRECISION) ELSE SUM(d) END',
    params: [config.max_intensity, config.max_intensity],
  };
}

/** The highest node total of the live field, clamped (0 on an empty field). */
export async function maxNodeTotal(db: AsyncSqlReader, config: StigmergyConfig, now: number): Promise<number> {
  const from = liveFrom(config, now);
  const clamp = clampedSum(config);
  const row = await db.get<{ m: number | null }>(
    `SELECT MAX(total) AS m FROM (SELECT ${clamp.sql} AS total ${from.sql} GROUP BY node_id) t`,
    [...clamp.params, ...from.params],
  );
  return Number(row?.m ?? 0);
}

/** The `limit` nodes with the highest clamped totals (then by node id), and how many points and nodes are live. */
export async function topNodes(
  db: AsyncSqlReader,
  config: StigmergyConfig,
  now: number,
  limit: number,
): Promise<{ nodes: { node_id: string; total: number }[]; pointCount: number; nodeCount: number }> {
  const from = liveFrom(config, now);
  const clamp = clampedSum(config);
  const rows = await db.all<{ node_id: string; total: number; nodes: number; points: number }>(
    `SELECT node_id, ${clamp.sql} AS total, COUNT(*) OVER () AS nodes, SUM(COUNT(*)) OVER () AS points ${from.sql}
     GROUP BY node_id ORDER BY total DESC, node_id LIMIT ?`,
    [...clamp.params, ...from.params, limit],
  );
  return {
    nodes: rows.map((r) => ({ node_id: r.node_id, total: Number(r.total) })),
    nodeCount: Number(rows[0]?.nodes ?? 0),
    pointCount: Number(rows[0]?.points ?? 0),
  };
}

/** The `limit` most intense live marks (then by node id and type). */
export async function topMarks(
  db: AsyncSqlReader,
  config: StigmergyConfig,
  now: number,
  limit: number,
): Promise<StigPoint[]> {
  const from = liveFrom(config, now);
  const rows = await db.all<LiveRow>(
    `SELECT node_id, type, intensity, updated_at, d ${from.sql} ORDER BY d DESC, node_id, type LIMIT ?`,
    [...from.params, limit],
  );
  return fadedPoints(config, rows, now);
}

/** The live marks of some nodes. */
export async function marksOfNodes(
  db: AsyncSqlReader,
  config: StigmergyConfig,
  now: number,
  nodes: readonly string[],
): Promise<StigPoint[]> {
  const out: StigPoint[] = [];
  for (let i = 0; i < nodes.length; i += 500) {
    const slice = nodes.slice(i, i + 500);
    out.push(
      ...(await liveMarks(db, config, now, {
        where: `node_id IN (${slice.map(() => '?').join(', ')})`,
        params: slice,
      })),
    );
  }
  return out;
}

/** Characters that make a stored node a glob (`isGlobPattern`), as LIKE patterns. */
const globLikes = ['%*%', '%?%', '%[%', '%]%', '%{%', '%}%'];

/**
 * A node the overlap rule must decide in TypeScript whatever the areas: a glob, or a node without
 * a `/` (bare word, root file). SQL over `node_id`; stig_nodes.loose (v16) stores it per node.
 */
export const looseNodeSql = `CASE WHEN ${globLikes.map((like) => `node_id LIKE '${like}'`).join(' OR ')} OR node_id NOT LIKE '%/%' THEN 1 ELSE 0 END`;

/**
 * The stored marks that may overlap some areas, as a filter: nodes equal to, under or above the
 * literal folder each area starts with, plus every glob and every node without a `/` (bare words,
 * root files), which the overlap rule decides in TypeScript (`nodesKept`: stig_nodes holds every
 * stored node with its `loose` flag, so they are read through its index). Null when an area has no literal
 * head (`**`, `*.ts`, a bare word): then every node is a candidate. A node left out cannot
 * overlap: its literal segments differ from the area's literal head somewhere.
 */
export function areaCandidates(areas: readonly string[], nodesKept = false): RowFilter | null {
  const heads = new Set<string>();
  for (const area of areas) {
    const shape = shapeOf(area);
    if (shape.nocase) return null;
    for (const seq of shape.sequences) {
      const head = literalHead(seq);
      if (head.length === 0) return null;
      heads.add(head.join('/'));
    }
  }
  if (heads.size === 0) return { where: '1 = 0', params: [] };
  // The loose nodes: from stig_nodes' index once writers keep it (`nodesKept`), else by a scan of the marks.
  const clauses: string[] = nodesKept
    ? ['node_id IN (SELECT node_id FROM stig_nodes WHERE loose = 1 OR loose IS NULL)']
    : [...globLikes.map(() => 'node_id LIKE ?'), 'node_id NOT LIKE ?'];
  const params: SqlValue[] = nodesKept ? [] : [...globLikes, '%/%'];
  const exact = new Set<string>();
  for (const head of heads) {
    const parts = head.split('/');
    for (let i = 1; i <= parts.length; i++) exact.add(parts.slice(0, i).join('/'));
    clauses.push('(node_id >= ? AND node_id < ?)');
    params.push(`${head}/`, `${head}0`); // '0' follows '/' in byte order: every path under the folder
  }
  clauses.push(`node_id IN (${[...exact].map(() => '?').join(', ')})`);
  params.push(...exact);
  return { where: clauses.join(' OR '), params };
}
