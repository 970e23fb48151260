/**
 * The asynchronous store port, implemented by two engines: the embedded sql.js image + journal
 * (the zero-setup default, src/store/embedded/) and PostgreSQL (src/store/postgres/).
 *
 * Written to become the domain's port (core/ports.ts) as it is: the domain writes SQLite-flavoured
 * SQL with `?` placeholders that both engines run (see docs/store-engines.md for the few rules that
 * keep one statement valid and equal on both), computes every value in TypeScript, and never sees
 * which engine it talks to.
 */
import type { Event } from '../core/emitter';
import type { Row, SqlParams, StoreChange } from '../core/ports';
import { StoreError } from './errors';

export type { Row, SqlParams, SqlValue, StoreChange } from '../core/ports';

/** Statements that read. Inside `read`, every statement sees one consistent state of the ledger. */
export interface AsyncSqlReader {
  /** The first row, or undefined. */
  get<T = Row>(sql: string, params?: SqlParams): Promise<T | undefined>;
  all<T = Row>(sql: string, params?: SqlParams): Promise<T[]>;
}

/** Statements of one write transaction. */
export interface AsyncSqlWriter extends AsyncSqlReader {
  /** Executes one statement; `changes` is the number of rows it inserted, updated or deleted. */
  run(sql: string, params?: SqlParams): Promise<{ changes: number }>;
  /**
   * Inserts one row and returns its key: the statement gets ` RETURNING id` appended unless it
   * already ends with a RETURNING clause of its own (e.g. `RETURNING seq` for events). Refuses
   * (`sql` StoreError) when no row was inserted, e.g. an `ON CONFLICT DO NOTHING` that did nothing.
   */
  insert(sql: string, params?: SqlParams): Promise<number>;
}

/** What `waitForChange` resolved with. */
export interface WaitResult {
  /** The ledger's commit seq when the wait ended (> afterSeq unless it timed out). */
  seq: number;
  timedOut: boolean;
}

export interface WaitOptions {
  /** Give up after this long and resolve with `timedOut: true` (default 50,000 ms, under MCP clients' 60 s). */
  timeoutMs?: number;
  /** Aborting rejects the wait with the signal's reason. */
  signal?: AbortSignal;
}

export type EngineKind = 'embedded' | 'postgres';

/** What `describe()` tells: safe to print and log (a URL's password is always redacted). */
export interface EngineDescription {
  kind: EngineKind;
  /** The image's path, or the server URL with its password replaced by `***`. */
  location: string;
  /** The ledger schema version the store holds. */
  schemaVersion: number;
}

/**
 * One ledger store. The commit seq (`seq`, `waitForChange`) counts committed writes that changed
 * something, on every process and machine alike: it never goes back, two writes never share one,
 * and a write with seq N is visible to every reader before any write with seq N+1 (so cursors on
 * it, and on the `events` table's seq which writes append under the same ordering, never skip or
 * repeat). See docs/store-engines.md.
 */
export interface LedgerEngine {
  readonly kind: EngineKind;
  /**
   * Runs `fn` on one consistent state of the ledger, including every write this process made
   * and every write of others that committed before the call. Never sees a write in progress.
   */
  read<T>(fn: (db: AsyncSqlReader) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` as one transaction: committed and durable when the promise resolves, rolled back
   * when `fn` throws (nothing of it is visible, anywhere). Writes of all processes are serialised.
   * `fn` computes every value in TypeScript (no `random()`/`now()` in SQL) and does nothing but
   * statements: on PostgreSQL it runs again when the connection fails before COMMIT was sent.
   * A statement that fails loses the transaction: later statements of the same `fn` throw
   * `aborted` (both engines behave as PostgreSQL does). Use `ON CONFLICT` instead of catching.
   */
  write<T>(fn: (tx: AsyncSqlWriter) => Promise<T>): Promise<T>;
  /** Fired when this process learns of commits it had not seen (its own or another's). */
  readonly onDidChange: Event<StoreChange>;
  /** Highest commit seq this process knows of. */
  readonly seq: number;
  /**
   * Resolves the moment any process or machine has committed a write past `afterSeq` (at once
   * when one already has), or when `timeoutMs` passes. Costs no CPU while waiting, holds no lock
   * and no transaction.
   */
  waitForChange(afterSeq: number, options?: WaitOptions): Promise<WaitResult>;
  describe(): EngineDescription;
  /** Ends waits (they resolve as timed out), stops watching and closes files or connections. */
  close(): Promise<void>;
}

/** Default and maximum bound of a wait: under the 60 s after which MCP clients give up on a call. */
export const DEFAULT_WAIT_MS = 50_000;

/** The SQL of `insert`: ` RETURNING id` appended unless the statement returns a key itself. */
export function withReturning(sql: string): string {
  return /\bRETURNING\s+[\w"]+\s*;?\s*$/i.test(sql) ? sql : `${sql.replace(/\s*;?\s*$/, '')} RETURNING id`;
}

/** The key `insert` returns: the first column of the returned row. */
export function insertedKey(row: Row | undefined, sql: string): number {
  const value = row ? Object.values(row)[0] : undefined;
  if (value === undefined || value === null) throw new StoreError('sql', `insert() inserted no row: ${sql.trim().slice(0, 80)}`);
  return Number(value);
}

