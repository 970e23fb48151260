import type { AsyncSqlReader, AsyncSqlWriter, LedgerEngine } from '../../ports/store';
import { untilSomething } from '../../waitFor';
import { appendCoordinationEvent } from '../bus/coordinationEvents';
import type { Correlation } from '../../events/correlation';
import {
  assertStorableValue,
  compareForQuery,
  isEntryVisible,
  matchesBlackboardQuery,
  namespaceOf,
  nextEntry,
} from './blackboardRules';
import type { BlackboardEntry, BlackboardQuery } from './blackboardRules';
import { defaultLimits, limitReached } from '../../limits/ledgerLimits';
import type { LedgerLimits } from '../../limits/ledgerLimits';
import { setUsage, usageOf } from '../../limits/usageCounters';

export type BlackboardLimits = Pick<LedgerLimits, 'bbNamespaceEntries' | 'bbNamespaceBytes' | 'bbTotalBytes'>;

/**
 * The blackboard over the asynchronous store port, so it runs on either engine. Every mutation
 * appends a `blackboard` event in the same transaction; the event's seq is the entry's version
 * (store-wide, never reused), which is also the cursor `bb_watch` resumes from. A namespace holds
 * at most bbNamespaceEntries entries and bbNamespaceBytes characters of values, the blackboard
 * bbTotalBytes: what each holds is kept in usage_counters by the writes here (the only ones).
 */
interface EntryRow {
  namespace: string;
  key: string;
  value: string;
  tags: string;
  version: number;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
}

const columns = 'namespace, key, value, tags, version, created_at, updated_at, expires_at';

function toEntry(row: EntryRow): BlackboardEntry {
  return {
    key: row.key,
    value: JSON.parse(row.value) as unknown,
    tags: JSON.parse(row.tags) as string[],
    version: Number(row.version),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    expires_at: row.expires_at === null ? null : Number(row.expires_at),
  };
}

async function rowFor(db: AsyncSqlReader, key: string): Promise<BlackboardEntry | null> {
  return (await storedFor(db, key))?.entry ?? null;
}

/** The stored entry under `key` (visible or not) and the characters of its value. */
async function storedFor(db: AsyncSqlReader, key: string): Promise<{ entry: BlackboardEntry; size: number } | null> {
  const row = await db.get<EntryRow>(`SELECT ${columns} FROM blackboard_entries WHERE namespace = ? AND key = ?`, [
    namespaceOf(key),
    key,
  ]);
  return row ? { entry: toEntry(row), size: row.value.length } : null;
}

const namespaceScope = (namespace: string): string => `usage:bb:${namespace}`;
const totalScope = 'usage:bb';

/** Characters of values of one namespace (or of all), from the rows. */
async function valueChars(db: AsyncSqlReader, namespace?: string): Promise<number> {
  const rows = await db.all<{ value: string }>(
    `SELECT value FROM blackboard_entries${namespace === undefined ? '' : ' WHERE namespace = ?'}`,
    namespace === undefined ? [] : [namespace],
  );
  return rows.reduce((n, r) => n + r.value.length, 0);
}

/**
 * Records that `namespace` changes by `delta` characters (and gains an entry when `added`),
 * refusing (E-QUOTA) what would pass a bound. Runs before the rows change.
 */
async function account(
  tx: AsyncSqlWriter,
  namespace: string,
  change: { delta: number; added: boolean; now: number; key: string },
  limits: BlackboardLimits,
): Promise<void> {
  // Together: one round trip on PostgreSQL.
  const [inNamespace, total, row] = await Promise.all([
    usageOf(tx, namespaceScope(namespace), () => valueChars(tx, namespace)),
    usageOf(tx, totalScope, () => valueChars(tx)),
    change.added
      ? tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM blackboard_entries WHERE namespace = ?', [namespace])
      : undefined,
  ]);
  if (change.added) {
    const entries = Number(row?.n ?? 0) + 1;
    if (entries > limits.bbNamespaceEntries)
      throw limitReached(
        'bbNamespaceEntries',
        `blackboard namespace "${namespace}" already holds ${limits.bbNamespaceEntries} entries: delete some (bb_delete), give them a ttl_ms, or use another namespace`,
        { namespace, key: change.key },
      );
  }
  if (change.delta > 0 && inNamespace + change.delta > limits.bbNamespaceBytes)
    throw limitReached(
      'bbNamespaceBytes',
      `blackboard namespace "${namespace}" would hold ${inNamespace + change.delta} characters of values, more than ${limits.bbNamespaceBytes}: delete entries (bb_delete) or give them a ttl_ms`,
      { namespace, key: change.key },
    );
  if (change.delta > 0 && total + change.delta > limits.bbTotalBytes)
    throw limitReached(
      'bbTotalBytes',
      `the blackboard would hold ${total + change.delta} characters of values, more than ${limits.bbTotalBytes}: delete entries (bb_delete) or give them a ttl_ms`,
      { namespace, key: change.key },
    );
  await Promise.all([
    setUsage(tx, namespaceScope(namespace), inNamespace + change.delta, change.now),
    setUsage(tx, totalScope, total + change.delta, change.now),
  ]);
}

function appendEvent(
  tx: AsyncSqlWriter,
  kind: 'set' | 'delete' | 'expire',
  key: string,
  now: number,
  payload: Record<string, unknown>,
  correlation?: Correlation,
): Promise<number> {
  return appendCoordinationEvent(tx, {
    kind: `blackboard.${kind}`,
    now,
    entity: 'blackboard',
    entityId: key,
    payload: { kind, key, ...payload },
    correlation,
  });
}

export interface BlackboardChange {
  version: number;
  kind: 'set' | 'delete' | 'expire';
  key: string;
  value?: unknown;
  /** When it happened (epoch ms). */
  timestamp: number;
  /** The entry after the change (its version is the change's), null for delete and expire. */
  entry: BlackboardEntry | null;
  /** The visible entry before the change, null when new. */
  previous: BlackboardEntry | null;
  /** Why an entry expired, null otherwise. */
  reason: string | null;
}

interface ChangePayload {
  kind: 'set' | 'delete' | 'expire';
  key: string;
  value?: unknown;
  entry?: Omit<BlackboardEntry, 'version'> | null;
  previous?: BlackboardEntry | null;
  reason?: string | null;
}

function toChange(row: { seq: number; ts: string; payload: string }): BlackboardChange {
  const version = Number(row.seq);
  const p = JSON.parse(row.payload) as ChangePayload;
  return {
    version,
    kind: p.kind,
    key: p.key,
    ...(p.value !== undefined ? { value: p.value } : {}),
    timestamp: Date.parse(row.ts),
    entry: p.entry ? { ...p.entry, version } : null,
    previous: p.previous ?? null,
    reason: p.reason ?? null,
  };
}

export interface BlackboardWrite {
  key: string;
  value: unknown;
  tags?: readonly string[];
  ttl_ms?: number;
}

export class BlackboardService {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly clock: () => number = Date.now,
    private readonly limits: BlackboardLimits = defaultLimits,
  ) {}

  /** Writes one entry; the previous entry's creation time survives while it is alive. */
  set(write: BlackboardWrite): Promise<BlackboardEntry> {
    assertStorableValue(write.key, write.value);
    return this.engine.write((tx) => this.setIn(tx, write));
  }

  /** Writes every entry or none (one transaction). */
  async setMany(writes: readonly BlackboardWrite[]): Promise<BlackboardEntry[]> {
    for (const w of writes) assertStorableValue(w.key, w.value);
    return this.engine.write(async (tx) => {
      const out: BlackboardEntry[] = [];
      for (const w of writes) out.push(await this.setIn(tx, w));
      return out;
    });
  }

  /** The visible entry under `key`, or null (absent or expired). */
  async get(key: string): Promise<BlackboardEntry | null> {
    const entry = await this.engine.read((db) => rowFor(db, key));
    return entry && isEntryVisible(entry, this.clock()) ? entry : null;
  }

  /** Visible entries matching the filters, most recently updated first. */
  async query(query: BlackboardQuery, limit = 100): Promise<BlackboardEntry[]> {
    const rows = await this.engine.read((db) => db.all<EntryRow>(`SELECT ${columns} FROM blackboard_entries`));
    const now = this.clock();
    return rows
      .map(toEntry)
      .filter((e) => matchesBlackboardQuery(e, query, now))
      .sort(compareForQuery)
      .slice(0, limit);
  }

  /**
   * Deletes entries whose time to live has passed (reads already hide them; this frees their
   * rows), each with an `expire` change (reason `ttl`) so bb_watch sees it go. At most `limit`
   * per call, oldest expiry first; returns how many went.
   */
  async purgeExpired(limit = 500): Promise<number> {
    const now = this.clock();
    const due = await this.engine.read((db) =>
      db.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM blackboard_entries WHERE expires_at IS NOT NULL AND expires_at <= ?',
        [now],
      ),
    );
    if (!due || Number(due.n) === 0) return 0;
    return this.engine.write(async (tx) => {
      const at = this.clock();
      const rows = await tx.all<EntryRow>(
        `SELECT ${columns} FROM blackboard_entries WHERE expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at, key LIMIT ?`,
        [at, limit],
      );
      for (const row of rows) {
        const entry = toEntry(row);
        await account(
          tx,
          row.namespace,
          { delta: -row.value.length, added: false, now: at, key: entry.key },
          this.limits,
        );
        await tx.run('DELETE FROM blackboard_entries WHERE namespace = ? AND key = ?', [
          namespaceOf(entry.key),
          entry.key,
        ]);
        await appendEvent(tx, 'expire', entry.key, at, { version: entry.version, previous: entry, reason: 'ttl' });
      }
      return rows.length;
    });
  }

  /** Removes `key`; false when nothing visible was there. */
  async delete(key: string): Promise<boolean> {
    return (await this.remove(key)) !== null;
  }

  /** Removes `key`: the version of the deletion, or null when nothing visible was there. */
  remove(key: string, correlation?: Correlation): Promise<number | null> {
    return this.engine.write(async (tx) => {
      const stored = await storedFor(tx, key);
      const previous = stored?.entry;
      const now = this.clock();
      if (!stored || !previous || !isEntryVisible(previous, now)) return null;
      await account(tx, namespaceOf(key), { delta: -stored.size, added: false, now, key }, this.limits);
      await tx.run('DELETE FROM blackboard_entries WHERE namespace = ? AND key = ?', [namespaceOf(key), key]);
      return appendEvent(tx, 'delete', key, now, { version: previous.version, previous }, correlation);
    });
  }

  /**
   * Blackboard changes after `afterVersion` (oldest first, at most `limit`). When there are none,
   * waits until any process commits one or `waitMs` passes, holding no lock while waiting.
   */
  async watch(
    afterVersion: number,
    options: { waitMs: number; limit?: number; keyPrefix?: string; signal?: AbortSignal },
  ): Promise<BlackboardChange[]> {
    const prefix = options.keyPrefix ?? '';
    const changes = await untilSomething(
      this.engine,
      this.clock,
      options.waitMs,
      async () => {
        const rows = await this.engine.read((db) =>
          db.all<{ seq: number; ts: string; payload: string }>(
            "SELECT seq, ts, payload FROM events WHERE entity = 'blackboard' AND seq > ? AND substr(entity_id, 1, ?) = ? ORDER BY seq LIMIT ?",
            [afterVersion, prefix.length, prefix, options.limit ?? 100],
          ),
        );
        return rows.length > 0 ? rows.map(toChange) : null;
      },
      { signal: options.signal },
    );
    return changes ?? [];
  }

  /** `set` inside the caller's transaction (so an idempotency record commits with it); the event carries `correlation`. */
  setInTransaction(tx: AsyncSqlWriter, write: BlackboardWrite, correlation?: Correlation): Promise<BlackboardEntry> {
    assertStorableValue(write.key, write.value);
    return this.setIn(tx, write, correlation);
  }

  /** `setMany` inside the caller's transaction. */
  async setManyInTransaction(
    tx: AsyncSqlWriter,
    writes: readonly BlackboardWrite[],
    correlation?: Correlation,
  ): Promise<BlackboardEntry[]> {
    for (const w of writes) assertStorableValue(w.key, w.value);
    const out: BlackboardEntry[] = [];
    for (const w of writes) out.push(await this.setIn(tx, w, correlation));
    return out;
  }

  private async setIn(tx: AsyncSqlWriter, write: BlackboardWrite, correlation?: Correlation): Promise<BlackboardEntry> {
    const now = this.clock();
    const found = await storedFor(tx, write.key);
    const stored = found?.entry ?? null;
    const previous = stored && isEntryVisible(stored, now) ? stored : null;
    const value = JSON.stringify(write.value);
    await account(
      tx,
      namespaceOf(write.key),
      { delta: value.length - (found?.size ?? 0), added: found === null, now, key: write.key },
      this.limits,
    );
    // The event carries the entry (its version is the event's seq) and the one it replaced, for bb_watch.
    const { version: _unknownYet, ...draft } = nextEntry(previous, write, { now, version: 0 });
    const version = await appendEvent(
      tx,
      'set',
      write.key,
      now,
      { value: write.value, tags: write.tags ?? [], ttl_ms: write.ttl_ms ?? null, entry: draft, previous },
      correlation,
    );
    const entry: BlackboardEntry = { ...draft, version };
    await tx.run(
      `INSERT INTO blackboard_entries (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, tags = excluded.tags, version = excluded.version,
         created_at = excluded.created_at, updated_at = excluded.updated_at, expires_at = excluded.expires_at`,
      [
        namespaceOf(entry.key),
        entry.key,
        value,
        JSON.stringify(entry.tags),
        entry.version,
        entry.created_at,
        entry.updated_at,
        entry.expires_at,
      ],
    );
    return entry;
  }
}
