import { parseId } from '../../ids';
import type { AsyncSqlReader, AsyncSqlWriter } from '../../ports/store';
import { markTypeTask } from './stigmergyAreas';
import { pointValues } from './stigmergyField';
import type { StigChange, StigmergyField, StigPoint } from './stigmergyField';
import { refreshNodes } from './stigmergyWeights';
import { callerTokenId } from '../../caller';

/**
 * The rows behind the stigmergy tools (stig_points, stig_clock, events; migrations v11, v14):
 * every function takes the reader or writer of the caller's transaction.
 */

export interface PointRow {
  node_id: string;
  type: string;
  intensity: number;
  updated_at: number;
}

export const finished = "('done', 'failed', 'cancelled')";

export function toPoint(row: PointRow): StigPoint {
  return { node_id: row.node_id, type: row.type, intensity: Number(row.intensity), updated_at: Number(row.updated_at) };
}

/** The ledger task a mark type belongs to (`scope:task-12` → 12), or null. */
export function markTaskId(type: string): number | null {
  const key = markTypeTask(type);
  if (key === null) return null;
  try {
    return parseId('task', key);
  } catch {
    return null;
  }
}

/** Which of some tasks are done, failed or cancelled (their marks stop counting). */
export async function endedTasks(db: AsyncSqlReader, ids: readonly number[]): Promise<Set<number>> {
  const ended = new Set<number>();
  for (let i = 0; i < ids.length; i += 500) {
    const slice = ids.slice(i, i + 500);
    const rows = await db.all<{ id: number }>(
      `SELECT id FROM tasks WHERE status IN ${finished} AND id IN (${slice.map(() => '?').join(', ')})`,
      slice,
    );
    for (const r of rows) ended.add(Number(r.id));
  }
  return ended;
}

export async function pointsOfNodes(db: AsyncSqlReader, nodes: readonly string[]): Promise<StigPoint[]> {
  const out: StigPoint[] = [];
  for (let i = 0; i < nodes.length; i += 200) {
    const slice = nodes.slice(i, i + 200);
    const rows = await db.all<PointRow>(
      `SELECT node_id, type, intensity, updated_at FROM stig_points WHERE node_id IN (${slice.map(() => '?').join(', ')})`,
      slice,
    );
    out.push(...rows.map(toPoint));
  }
  return out;
}

/**
 * Stores the marks a batch changed, and deletes the stored marks of those nodes that faded away
 * (`faded` dropped them). Untouched marks keep their stored intensity and time: reads fade them
 * the same way.
 */
export async function storeChanges(
  tx: AsyncSqlWriter,
  stored: readonly StigPoint[],
  faded: StigmergyField,
  changes: readonly StigChange[],
  weigh: (p: StigPoint) => { weight: number; gone_at: number },
): Promise<void> {
  const written = new Map<string, StigPoint>();
  for (const c of changes) written.set(`${c.point.node_id}\u0000${c.point.type}`, c.point);
  for (const p of written.values()) {
    const { weight, gone_at } = weigh(p);
    await tx.run(
      `INSERT INTO stig_points (node_id, type, intensity, updated_at, task_id, weight, gone_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (node_id, type) DO UPDATE SET intensity = excluded.intensity, updated_at = excluded.updated_at, task_id = excluded.task_id,
         weight = excluded.weight, gone_at = excluded.gone_at`,
      [p.node_id, p.type, p.intensity, p.updated_at, markTaskId(p.type), weight, gone_at],
    );
  }
  const alive = new Set<string>();
  for (const p of pointValues(faded)) alive.add(`${p.node_id}\u0000${p.type}`);
  for (const p of stored) {
    const key = `${p.node_id}\u0000${p.type}`;
    if (!alive.has(key) && !written.has(key))
      await tx.run('DELETE FROM stig_points WHERE node_id = ? AND type = ?', [p.node_id, p.type]);
  }
}

/** Deletes the marks of tasks that ended (marks of a task the lifecycle hook missed). */
export async function purgeEnded(tx: AsyncSqlWriter): Promise<void> {
  const ended = `task_id IN (SELECT id FROM tasks WHERE status IN ${finished})`;
  const nodes = (await tx.all<{ node_id: string }>(`SELECT DISTINCT node_id FROM stig_points WHERE ${ended}`)).map(
    (r) => r.node_id,
  );
  if (nodes.length === 0) return;
  const { changes } = await tx.run(`DELETE FROM stig_points WHERE ${ended}`);
  await refreshNodes(tx, nodes);
  if (changes > 0) await bumpClock(tx, nodes);
}

/** Versions of stig_changes kept: a reader further behind reads every mark again. */
export const keptChangeVersions = 1024;

/**
 * Every change of stig_points bumps stig_clock (processes reread the marks when it moved) and
 * notes, under the new version, the nodes it changed (stig_changes, migration v17; 'all', or no
 * list: every node), so a reader can read only those (stigmergyPressure.ts).
 */
export async function bumpClock(tx: AsyncSqlWriter, nodes: readonly string[] | 'all' = 'all'): Promise<number> {
  await tx.run(
    'INSERT INTO stig_clock (id, version) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET version = stig_clock.version + 1',
  );
  const version = Number(
    (await tx.get<{ version: number }>('SELECT version FROM stig_clock WHERE id = 1'))?.version ?? 1,
  );
  const changed = nodes === 'all' || nodes.length === 0 ? [''] : [...new Set(nodes)];
  for (let i = 0; i < changed.length; i += 200) {
    const slice = changed.slice(i, i + 200);
    await tx.run(
      `INSERT INTO stig_changes (version, node_id) VALUES ${slice.map(() => '(?, ?)').join(', ')} ON CONFLICT (version, node_id) DO NOTHING`,
      slice.flatMap((n) => [version, n]),
    );
  }
  await tx.run('DELETE FROM stig_changes WHERE version <= ?', [version - keptChangeVersions]);
  return version;
}

export async function appendStigEvent(
  tx: AsyncSqlWriter,
  kind: string,
  now: number,
  payload: Record<string, unknown>,
): Promise<number> {
  return tx.insert(
    'INSERT INTO events (ts, kind, entity, entity_id, payload, token_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq',
    [
      new Date(now).toISOString(),
      `stigmergy.${kind}`,
      'stigmergy',
      kind,
      JSON.stringify({ kind, ...payload }),
      callerTokenId(),
    ],
  );
}
