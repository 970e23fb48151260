import { validationError } from '../../errors';
import { taskKey } from '../../ids';
import type { AsyncSqlReader, AsyncSqlWriter, LedgerEngine } from '../../ports/store';
import { areaBounds, pressureOnAreas, taskMarkType } from './stigmergyAreas';
import type { AreaPressure, PathPressure, TaskMarkKind } from './stigmergyAreas';
import { PressureFollower } from './stigmergyPressure';
import type { PressureRollUp } from './stigmergyPressure';
import { batchMark, createField, decay, mark as markField, normaliseNodeId } from './stigmergyField';
import type { StigChange, StigMarkEntry, StigmergyConfig, StigmergyField, StigPoint } from './stigmergyField';
import { fadeTo, liveMarks, marksOfTasks } from './stigmergyQueries';
import { fieldBounds, fieldNear, limitedSnapshot, StoredMarks } from './stigmergyReads';
import { ensureBasis, markWeight, reweighAll, refreshNodes } from './stigmergyWeights';
import { snapshot } from './stigmergySnapshot';
import type { PheromoneBounds, StigSnapshot } from './stigmergySnapshot';
import { appendStigEvent, bumpClock, pointsOfNodes, purgeEnded, storeChanges, toPoint } from './stigmergyStore';
import type { PointRow } from './stigmergyStore';

/**
 * The stigmergy field over the asynchronous store port (table stig_points, migration v11), so
 * every process of a workspace — and every machine on a shared PostgreSQL ledger — sees the same
 * marks. Stored marks keep the intensity and time of their last change; they fade with time
 * (`halfLifeMs`) whenever they are read, and the marks of a ledger task (`scope:task-12`,
 * `changed:task-12`) stop counting as soon as the task is done, failed or cancelled, and are
 * deleted by the next write (or at once by `clearTask`, the task lifecycle's hook).
 * Every entry is validated before the write begins, so a refused batch writes nothing and
 * appends no event.
 * Reads never load the whole field: stig_snapshot and the field's bounds read the top of the
 * ranked store (stigmergyWeights.ts, migration v14) that every write keeps up to date, or — for
 * a bounded field, or while marks of an ended task wait for the next write to purge them — fade
 * and aggregate the marks in SQL (stigmergyQueries.ts, stigmergyReads.ts). A call's bounds read
 * only the marks that may overlap its areas; the Explorer's roll-up reads only what changed
 * (stigmergyPressure.ts). Writes are here: marks, batches, decay, a task's marks and their clearing.
 */

/** How marks fade when nothing decays them explicitly: halved every 15 minutes. */
export const defaultStigHalfLifeMs = 15 * 60_000;

export interface StigmergyOptions {
  /** Half-life applied when marks are read and before a mark adds to an existing one. */
  halfLifeMs?: number;
  /** Cap of one mark and of a node's total (null: none). */
  maxIntensity?: number | null;
}

/** Called inside each write that changed the field (the contract-net watcher counts it). */
export type FieldChangeHook = (tx: AsyncSqlWriter, now: number) => Promise<void>;

export class StigmergyService {
  readonly config: StigmergyConfig;
  private readonly hooks: FieldChangeHook[] = [];
  private readonly pressure: PressureFollower;
  private readonly stored = new StoredMarks();

  constructor(
    private readonly engine: LedgerEngine,
    private readonly clock: () => number = Date.now,
    options: StigmergyOptions = {},
  ) {
    this.config = createField({
      half_life_ms: options.halfLifeMs ?? defaultStigHalfLifeMs,
      max_intensity: options.maxIntensity ?? null,
    }).config;
    this.pressure = new PressureFollower(this.config);
  }

  /** Runs `hook` inside every write that changes the field. */
  onFieldChange(hook: FieldChangeHook): void {
    this.hooks.push(hook);
  }

  /** stig_mark: adds one mark. */
  async mark(entry: StigMarkEntry): Promise<StigChange> {
    markField(createField(this.config), entry, this.clock()); // a bad entry throws its own code (E-STIG-TYPE, …) before any write
    return (await this.batch([entry], 'mark'))[0];
  }

  /**
   * stig_batch: every mark or none. Entries are checked before the write (E-BULK-PARTIAL with
   * every failure, nothing written, no event); then the touched nodes are read, faded to now,
   * marked and stored in one transaction, with one `stigmergy.batch` event.
   */
  async batch(entries: readonly StigMarkEntry[], kind = 'batch'): Promise<StigChange[]> {
    batchMark(createField(this.config), entries, this.clock()); // validates every entry, throws before any write
    return this.engine.write(async (tx) => {
      const now = this.clock();
      const basis = await ensureBasis(tx, this.config, now);
      await purgeEnded(tx);
      const nodes = [...new Set(entries.map((e) => normaliseNodeId(e.node_id)))];
      const stored = await pointsOfNodes(tx, nodes);
      // Faded to now and stamped now, so the mark adds to what is left rather than reviving old pressure.
      const field = this.faded(stored, now, true);
      const { changes } = batchMark(field, entries, now);
      await storeChanges(tx, stored, field, changes, (p) => markWeight(this.config, basis, p));
      await refreshNodes(tx, nodes);
      await appendStigEvent(tx, kind, now, { changes: changes.length, nodes: nodes.slice(0, 20) });
      await this.changed(tx, now, nodes);
      return changes;
    });
  }

  /**
   * stig_decay: fades every mark by `halfLifeMs` for the time since its last change, now, and
   * stores the result (marks that become negligible are deleted).
   */
  async decay(halfLifeMs: number): Promise<StigChange[]> {
    if (!Number.isFinite(halfLifeMs) || halfLifeMs <= 0)
      throw validationError('half_life_ms must be a positive finite number', { error: 'E-STIG-HALF-LIFE' });
    return this.engine.write(async (tx) => {
      const now = this.clock();
      const basis = await ensureBasis(tx, this.config, now);
      await purgeEnded(tx);
      const field = createField(
        this.config,
        (await tx.all<PointRow>('SELECT node_id, type, intensity, updated_at FROM stig_points')).map(toPoint),
      );
      const { changes } = decay(field, halfLifeMs, now);
      for (const c of changes) {
        if (c.point.intensity > 0) {
          await tx.run('UPDATE stig_points SET intensity = ?, updated_at = ? WHERE node_id = ? AND type = ?', [
            c.point.intensity,
            now,
            c.point.node_id,
            c.point.type,
          ]);
        } else {
          await tx.run('DELETE FROM stig_points WHERE node_id = ? AND type = ?', [c.point.node_id, c.point.type]);
        }
      }
      if (changes.length > 0) {
        await reweighAll(tx, this.config, basis);
        await appendStigEvent(tx, 'decay', now, {
          half_life_ms: halfLifeMs,
          changes: changes.length,
          evaporated: changes.filter((c) => c.point.intensity === 0).length,
        });
        await this.changed(tx, now, 'all');
      }
      return changes;
    });
  }

  /**
   * The field as it stands now: live marks, faded by the half-life. The stored marks are read
   * again only when stig_clock moved (another process or this one changed them); which of their
   * tasks ended is asked every time.
   */
  async field(): Promise<StigmergyField> {
    const live = await this.engine.read((db) => this.stored.live(db));
    return this.faded(live, this.clock());
  }

  /**
   * stig_snapshot. With a `limit` (the tool always passes one) the store aggregates: node totals,
   * counts and the top marks come from SQL, and only the marks of the returned nodes are read.
   */
  async snapshot(limit?: number): Promise<StigSnapshot> {
    if (limit === undefined)
      return this.engine.read(async (db) =>
        snapshot(createField(this.config, await liveMarks(db, this.config, this.clock())), this.clock()),
      );
    return this.engine.read((db) => limitedSnapshot(db, this.config, this.clock(), limit));
  }

  /** Pressure on files and folders (which running tasks touch them), for the Explorer and the board. */
  async pathPressure(): Promise<PathPressure[]> {
    return (await this.pressureRollUp()).paths;
  }

  /**
   * pathPressure, with the field version it was read at, the moment its numbers are faded to and
   * the moment it stops holding (a mark evaporates). Kept up to date by reading only what changed
   * since the last call (stigmergyPressure.ts); unchanged, it is the same answer (the same object).
   */
  async pressureRollUp(): Promise<PressureRollUp> {
    return this.engine.read((db) => this.pressure.read(db, this.clock()));
  }

  /** The live marks of some tasks (by key), inside the caller's read: the board's overlap warning reads only the running tasks'. */
  marksOfTasksIn(db: AsyncSqlReader, taskKeys: readonly string[]): Promise<StigPoint[]> {
    return marksOfTasks(db, this.config, this.clock(), taskKeys);
  }

  /** How busy some areas are, leaving out the marks of `ignoreTaskId`. */
  async pressureOn(areas: readonly string[], ignoreTaskId?: number): Promise<AreaPressure> {
    const field = await this.engine.read((db) => fieldNear(db, this.config, areas, this.clock()));
    return pressureOnAreas(field, areas, ignoreTaskId === undefined ? undefined : taskKey(ignoreTaskId));
  }

  /** Contract-net bounds for a task's areas (pressure put on them by other tasks). */
  async boundsFor(areas: readonly string[], ignoreTaskId?: number): Promise<PheromoneBounds> {
    return this.engine.read((db) => this.boundsIn(db, areas, ignoreTaskId, this.clock()));
  }

  /** `boundsFor` inside the caller's read or write: only the marks that may overlap the areas are read. */
  async boundsIn(
    db: AsyncSqlReader,
    areas: readonly string[],
    ignoreTaskId: number | undefined,
    now: number,
  ): Promise<PheromoneBounds> {
    return areaBounds(
      await fieldNear(db, this.config, areas, now),
      areas,
      ignoreTaskId === undefined ? undefined : taskKey(ignoreTaskId),
    );
  }

  /** The bounds of the whole field (its highest node total as ceiling), aggregated by the store. */
  async fieldBoundsIn(db: AsyncSqlReader, now: number): Promise<PheromoneBounds> {
    return fieldBounds(db, this.config, now);
  }

  /**
   * Marks the areas a running task is changing: its declared areas or write scopes (`scope`)
   * or the files it has changed so far (`changed`). The runner, worker_command and start_task
   * call it; an empty list marks nothing.
   */
  async markTask(
    taskId: number,
    paths: readonly string[],
    kind: TaskMarkKind = 'scope',
    intensity = 1,
  ): Promise<StigChange[]> {
    const type = taskMarkType(taskKey(taskId), kind);
    const entries = [...new Set(paths.map((p) => p.trim()).filter((p) => p.length > 0))].map((node_id) => ({
      node_id,
      type,
      intensity,
    }));
    if (entries.length === 0) return [];
    const out: StigChange[] = [];
    for (let i = 0; i < entries.length; i += 200)
      out.push(...(await this.batch(entries.slice(i, i + 200), `task.${kind}`)));
    return out;
  }

  /** The task lifecycle's hook: a task ended, its marks go (none: nothing is written). */
  async clearTask(taskId: number): Promise<number> {
    const has = await this.engine.read((db) =>
      db.get<{ n: number }>('SELECT COUNT(*) AS n FROM stig_points WHERE task_id = ?', [taskId]),
    );
    if (!has || Number(has.n) === 0) return 0;
    return this.engine.write(async (tx) => {
      const now = this.clock();
      await ensureBasis(tx, this.config, now);
      const nodes = (
        await tx.all<{ node_id: string }>('SELECT DISTINCT node_id FROM stig_points WHERE task_id = ?', [taskId])
      ).map((r) => r.node_id);
      const { changes } = await tx.run('DELETE FROM stig_points WHERE task_id = ?', [taskId]);
      await refreshNodes(tx, nodes);
      if (changes > 0) {
        await appendStigEvent(tx, 'clear', now, { task_id: taskId, removed: changes });
        await this.changed(tx, now, nodes);
      }
      return changes;
    });
  }

  /** Marks faded to `now` with the configured half-life; negligible ones dropped; times kept. */
  private faded(points: readonly StigPoint[], now: number, restamp = false): StigmergyField {
    const kept: StigPoint[] = [];
    for (const p of points) {
      const intensity = fadeTo(this.config, p, now);
      if (intensity > this.config.evaporation_floor)
        kept.push({ ...p, intensity, updated_at: restamp ? Math.max(now, p.updated_at) : p.updated_at });
    }
    return createField(this.config, kept);
  }

  private async changed(tx: AsyncSqlWriter, now: number, nodes: readonly string[] | 'all'): Promise<void> {
    await bumpClock(tx, nodes);
    for (const hook of this.hooks) await hook(tx, now);
  }
}
