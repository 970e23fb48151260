/**
 * The store port: what `core` needs from `store/` (both engines implement it). `src/app/services.ts`
 * wires the implementation in; `core` never imports the store.
 */
import type { Event } from '../emitter';

export type SqlValue = string | number | null;
export type SqlParams = readonly SqlValue[];
export type Row = Record<string, SqlValue>;

export interface SqlReader {
  get<T = Row>(sql: string, params?: SqlParams): T | undefined;
  all<T = Row>(sql: string, params?: SqlParams): T[];
}

export interface SqlWriter extends SqlReader {
  /** Executes one statement and records it (with its bound values) in the journal. */
  run(sql: string, params?: SqlParams): { changes: number; lastInsertRowid: number };
}

/** Emitted when this process has applied records it had not seen (its own or another's). */
export interface StoreChange {
  /** Last sequence number seen before the change. */
  fromSeq: number;
  /** Sequence number now applied. */
  toSeq: number;
  /** True when the records came from another process. */
  external: boolean;
}

/**
 * The embedded store's synchronous interface (store/ledgerStore.ts implements it; the embedded
 * engine wraps it). The domain does not use it: it talks to {@link LedgerEngine}.
 *
 * The one multi-process store of a workspace (DESIGN.md). Reads catch up with the journal
 * first; writes run under the cross-process lock, in a transaction, and are durable
 * (fsynced) when the promise resolves. `fn` must be synchronous and must compute every
 * value in TypeScript (no `random()`/`now()` in SQL) so replay is deterministic.
 */
export interface LedgerDb {
  read<T>(fn: (db: SqlReader) => T): T;
  write<T>(fn: (db: SqlWriter) => T): Promise<T>;
  readonly onDidChange: Event<StoreChange>;
  /** Highest journal sequence number applied in this process. */
  readonly seq: number;
}

// ---------------------------------------------------------------------------------------
// The asynchronous store port (store/engine.ts implements it twice: embedded and PostgreSQL).
// Every service of the domain is written against it.
// ---------------------------------------------------------------------------------------

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
