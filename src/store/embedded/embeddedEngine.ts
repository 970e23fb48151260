import type { Disposable, Event } from '../../core/emitter';
import type { SqlParams, StoreChange } from '../../core/ports/store';
import { ChangeWaiters } from '../changeWaiters';
import { insertedKey, withReturning } from '../engine';
import type {
  AsyncSqlReader,
  AsyncSqlWriter,
  EngineDescription,
  LedgerEngine,
  WaitOptions,
  WaitResult,
} from '../engine';
import { StoreError } from '../errors';
import { Gate } from './gate';
import { watchJournal } from './journalWatcher';
import { LedgerStore } from './ledgerStore';
import type { StoreOptions } from './storeWrites';
import type { RecordingWriter } from './recordingWriter';
import { StatementGuard } from '../statementGuard';
import { sqliteStatementError } from './sqliteErrors';

export interface EmbeddedEngineOptions extends StoreOptions {
  /** Poll interval behind the file-system watch that notices other processes' writes (default 1000 ms). */
  pollMs?: number;
}

/**
 * The embedded engine: the image + journal store (LedgerStore: file lock, fsynced journal, damage
 * detection, checkpoints, all unchanged) behind the asynchronous port.
 *
 * - A write takes the file lock, then runs `fn` inside the sql.js transaction across its awaits;
 *   the journal record holds the exact statements and values, so replay stays deterministic.
 * - Reads, catch-ups and the in-memory part of writes pass through one in-process gate, so a
 *   read never sees a write in progress (sql.js has one connection) and never waits for another
 *   process's lock.
 * - Other processes' writes are noticed by an inotify watch of the journal's folder (a slow poll
 *   behind it), started by the first wait or `onDidChange` listener.
 */
export class EmbeddedEngine implements LedgerEngine {
  readonly kind = 'embedded' as const;
  private readonly gate = new Gate();
  private readonly waiters = new ChangeWaiters();
  private readonly subscription: Disposable;
  private watcher: Disposable | undefined;
  private closed = false;
  private reportedDamage: string | undefined;

  private constructor(
    /** The store underneath (tests and `db` commands reach its files through it). */
    readonly store: LedgerStore,
    private readonly pollMs: number,
  ) {
    this.subscription = store.onDidChange((e) => this.waiters.notify(e.toSeq));
  }

  /**
   * The engine over a store this process already opened (the composition root shares one store
   * between the domain's synchronous port and this one); closing the engine closes the store.
   */
  static over(store: LedgerStore, pollMs = 1000): EmbeddedEngine {
    return new EmbeddedEngine(store, pollMs);
  }

  /** Opens (creating or migrating) the store at `options.dbPath`. */
  static async open(options: EmbeddedEngineOptions): Promise<EmbeddedEngine> {
    return new EmbeddedEngine(await LedgerStore.open(options), options.pollMs ?? 1000);
  }

  get seq(): number {
    return this.store.seq;
  }

  readonly onDidChange: Event<StoreChange> = (listener) => {
    this.watch();
    return this.store.onDidChange(listener);
  };

  read<T>(fn: (db: AsyncSqlReader) => Promise<T>): Promise<T> {
    this.assertOpen();
    return this.gate.run(() => {
      this.store.refreshNow();
      return fn(this.reader);
    });
  }

  write<T>(fn: (tx: AsyncSqlWriter) => Promise<T>): Promise<T> {
    this.assertOpen();
    return this.store.writeAsync(
      async (writer) => {
        const guard = new StatementGuard();
        const value = await fn(guardedWriter(writer, guard));
        guard.check();
        return value;
      },
      (body) => this.gate.run(body),
    );
  }

  waitForChange(afterSeq: number, options: WaitOptions = {}): Promise<WaitResult> {
    this.assertOpen();
    this.watch();
    return this.waiters.wait(afterSeq, options, () =>
      this.gate.run(() => {
        this.store.refreshNow();
        return this.store.seq;
      }),
    );
  }

  describe(): EngineDescription {
    return { kind: 'embedded', location: this.store.paths.image, schemaVersion: this.store.schemaVersion };
  }

  /** Forces a checkpoint (tests, benchmarks and `db copy`; writers checkpoint by themselves). */
  checkpoint(): Promise<void> {
    return this.store.checkpoint();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.waiters.closeAll(this.store.seq);
    this.watcher?.dispose();
    this.subscription.dispose();
    // Let a write in progress finish before its database goes away.
    await this.gate.run(() => undefined);
    this.store.close();
  }

  private readonly reader: AsyncSqlReader = {
    get: async (sql, params) => statement(sql, () => this.store.reader.get(sql, params)),
    all: async (sql, params) => statement(sql, () => this.store.reader.all(sql, params)),
  };

  /** Notices other processes' writes: applies them (through the gate) and wakes waiters. */
  private watch(): void {
    if (this.watcher || this.closed) return;
    this.watcher = watchJournal(this.store.paths.journal, this.pollMs, () => {
      if (this.closed) return;
      this.gate
        .run(() => {
          if (!this.closed) this.store.refreshNow();
        })
        .then(
          () => (this.reportedDamage = undefined),
          (err: unknown) => {
            // Damage is reported once, not on every poll; the next read or write says it again.
            if (!StoreError.is(err, 'damaged') && !StoreError.is(err, 'closed'))
              console.error('[agent-ledger] store refresh failed:', err);
            else if (StoreError.is(err, 'damaged') && this.reportedDamage !== err.message)
              console.error(`[agent-ledger] ${err.message}`);
            if (StoreError.is(err, 'damaged')) this.reportedDamage = err.message;
          },
        );
    });
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError('closed', 'the ledger store is closed');
  }
}

/** The port's writer over the store's recording writer, one failure losing the transaction. */
function guardedWriter(writer: RecordingWriter, guard: StatementGuard): AsyncSqlWriter {
  return {
    get: (sql: string, params?: SqlParams) => guard.run(() => statement(sql, () => writer.get(sql, params))),
    all: (sql: string, params?: SqlParams) => guard.run(() => statement(sql, () => writer.all(sql, params))),
    run: (sql: string, params?: SqlParams) =>
      guard.run(() => statement(sql, () => ({ changes: writer.run(sql, params).changes }))),
    insert: (sql: string, params?: SqlParams) =>
      guard.run(() => {
        const text = withReturning(sql);
        return statement(text, () => insertedKey(writer.runReturning(text, params).returned, text));
      }),
  } as AsyncSqlWriter;
}

/** Runs one sql.js statement, its failure as a coded StoreError. */
function statement<T>(sql: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    throw sqliteStatementError(err, sql);
  }
}
