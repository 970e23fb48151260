import type { AsyncSqlReader, LedgerEngine, SqlValue } from '../../ports/store';
import { correlationCondition } from '../../events/correlation';
import { eventColumns, toCoordinationEvent } from './coordinationEvents';
import type { EventRow } from './coordinationEvents';
import { assertCursorRetained, matchesEventFilter } from './eventRecords';
import type { CoordinationEvent, EventFilter } from './eventRecords';
import { untilSomething } from '../../waitFor';
import { defaultLimits } from '../../limits/ledgerLimits';

/**
 * The event bus over the one events log: pages of events after a cursor, filtered, waiting for
 * the next commit of any process when there is nothing yet. Cursors are `events.seq`: every
 * write of every process is serialised and its events are visible before the next write
 * begins, so paging with `from_seq = next_seq` never skips nor repeats an event, across
 * processes, on both engines (seqs may have gaps on PostgreSQL; only their order counts).
 *
 * Retention: coordination events (graphs, blackboard, idempotency replays, child runtimes,
 * stigmergy, contract-net telemetry, knowledge-graph changes) beyond the newest
 * {@link EventRetention.maxEvents}, older than {@link EventRetention.maxAgeMs}, or past
 * {@link EventRetention.maxBytes} characters of payload counted from the newest, are dropped by
 * {@link prune}; events of workflows and tasks are the ledger's history (timelines, reports) and
 * are kept. The highest dropped seq is recorded, and a cursor older than it is refused with
 * E-EVT-CURSOR-EXPIRED.
 */
export interface EventRetention {
  /** Newest coordination events kept (mcp_info.limits.maxEventHistory). */
  maxEvents: number;
  /**
   * Coordination events older than this are dropped too (mcp_info.limits.maxEventAgeMs): every
   * event up to the newest one older than the age, so the dropped range stays one prefix of seq.
   */
  maxAgeMs: number;
  /**
   * Characters of payload kept (mcp_info.limits.maxEventBytes): a blackboard event carries the
   * value (and the one it replaced), so a count alone does not bound the log.
   */
  maxBytes: number;
}

/** Default retention (core/limits): the newest 100,000 coordination events, none older than 7 days, 64 MiB of payload. */
export const DEFAULT_EVENT_RETENTION: EventRetention = {
  maxEvents: defaultLimits.eventHistory,
  maxAgeMs: defaultLimits.eventAgeMs,
  maxBytes: defaultLimits.eventBytes,
};

/** Entities of the events the retention rule may drop (those without a workflow or task). */
export const PRUNABLE_ENTITIES = [
  'blackboard',
  'graph',
  'idempotency',
  'child',
  'stigmergy',
  'contract_net',
  'knowledge',
] as const;

/** Rows examined per try when filters drop most of them, so one call stays short. */
const SCAN_ROWS = 2_000;

export interface EventQuery {
  fromSeq: number;
  limit: number;
  filter?: EventFilter;
  /** Extra SQL condition (with its parameters) narrowing the rows before `filter`. */
  where?: { sql: string; params: SqlValue[] };
  /** Also keeps only the events this returns true for (after `filter`). */
  accept?: (e: CoordinationEvent) => boolean;
  waitMs: number;
  signal?: AbortSignal;
}

export interface EventBatch {
  events: CoordinationEvent[];
  /** The cursor to pass next: the last event returned, or the last one examined. */
  next_seq: number;
}

export async function retentionFloor(db: AsyncSqlReader): Promise<number> {
  const row = await db.get<{ pruned_through: number }>('SELECT pruned_through FROM event_retention WHERE id = 1');
  return row ? Number(row.pruned_through) : 0;
}

export class EventBusService {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly clock: () => number = Date.now,
    readonly retention: EventRetention = DEFAULT_EVENT_RETENTION,
  ) {}

  /**
   * Events after `fromSeq` that pass the filters, oldest first, at most `limit`; when there are
   * none, waits up to `waitMs` for one from any process. Throws E-EVT-CURSOR-EXPIRED when the
   * retention rule already dropped events after the cursor.
   */
  async page(query: EventQuery): Promise<EventBatch> {
    let cursor = query.fromSeq;
    const conditions: string[] = [];
    const params: SqlValue[] = [];
    const f = query.filter ?? {};
    for (const field of ['run_id', 'op_id', 'job_id', 'graph_id', 'node_id', 'child_id'] as const) {
      const value = f[field];
      if (value === undefined) continue;
      const c = correlationCondition(field, value);
      conditions.push(c.sql);
      params.push(...c.params);
    }
    if (query.where) {
      conditions.push(query.where.sql);
      params.push(...query.where.params);
    }
    const extra = conditions.map((c) => ` AND ${c}`).join('');
    const found = await untilSomething(
      this.engine,
      this.clock,
      query.waitMs,
      async () => {
        for (let scanned = 0; scanned < SCAN_ROWS * 5;) {
          const { rows, floor } = await this.engine.read(async (db) => ({
            floor: await retentionFloor(db),
            rows: await db.all<EventRow>(
              `SELECT ${eventColumns} FROM events WHERE seq > ?${extra} ORDER BY seq LIMIT ?`,
              [cursor, ...params, SCAN_ROWS],
            ),
          }));
          assertCursorRetained(cursor, floor === 0 ? null : floor + 1);
          if (rows.length === 0) return null;
          const out: CoordinationEvent[] = [];
          for (const row of rows) {
            const e = toCoordinationEvent(row);
            if (out.length >= query.limit) break;
            cursor = e.seq;
            if (matchesEventFilter(e, f) && (!query.accept || query.accept(e))) out.push(e);
          }
          if (out.length > 0) return out;
          scanned += rows.length;
          if (rows.length < SCAN_ROWS) return null;
        }
        return null;
      },
      { signal: query.signal },
    );
    return { events: found ?? [], next_seq: cursor };
  }

  /** The newest events (up to `limit`), oldest first, for resources_read. */
  async latest(where: { sql: string; params: SqlValue[] }, limit: number): Promise<CoordinationEvent[]> {
    const rows = await this.engine.read((db) =>
      db.all<EventRow>(`SELECT ${eventColumns} FROM events WHERE ${where.sql} ORDER BY seq DESC LIMIT ?`, [
        ...where.params,
        limit,
      ]),
    );
    return rows.reverse().map(toCoordinationEvent);
  }

  /** Applies the retention rule; returns how many events it dropped. */
  prune(): Promise<number> {
    return this.engine.write(async (tx) => {
      const top = Number((await tx.get<{ top: number | null }>('SELECT MAX(seq) AS top FROM events'))?.top ?? 0);
      const marks = PRUNABLE_ENTITIES.map(() => '?').join(', ');
      const cutoff = new Date(this.clock() - this.retention.maxAgeMs).toISOString();
      const aged = await tx.get<{ top: number | null }>(
        `SELECT MAX(seq) AS top FROM events WHERE ts < ? AND workflow_id IS NULL AND task_id IS NULL AND entity IN (${marks})`,
        [cutoff, ...PRUNABLE_ENTITIES],
      );
      // The newest prunable event that, counted from the newest, passes the payload bound.
      const heavy = await tx.get<{ top: number | null }>(
        `SELECT MAX(seq) AS top FROM (
           SELECT seq, SUM(length(payload)) OVER (ORDER BY seq DESC) AS kept
           FROM events WHERE workflow_id IS NULL AND task_id IS NULL AND entity IN (${marks})
         ) newest WHERE kept > ?`,
        [...PRUNABLE_ENTITIES, this.retention.maxBytes],
      );
      const through = Math.max(top - this.retention.maxEvents, Number(aged?.top ?? 0), Number(heavy?.top ?? 0));
      if (through <= (await retentionFloor(tx))) return 0;
      const { changes } = await tx.run(
        `DELETE FROM events WHERE seq <= ? AND workflow_id IS NULL AND task_id IS NULL AND entity IN (${marks})`,
        [through, ...PRUNABLE_ENTITIES],
      );
      await tx.run(
        'INSERT INTO event_retention (id, pruned_through, pruned_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET pruned_through = excluded.pruned_through, pruned_at = excluded.pruned_at',
        [through, this.clock()],
      );
      return changes;
    });
  }
}
