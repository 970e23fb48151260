import * as path from 'node:path';
import type { SqlJsStatic } from 'sql.js';
import type { SqlWriter } from '../../core/ports/store';
import { JournaledDatabase } from './journaledDatabase';
import { StoreError } from '../errors';
import { recordingWriter } from './recordingWriter';
import type { Recording, RecordingWriter } from './recordingWriter';
import { FileLock } from './lock';
import { fileSystemStoreError } from './fileSystemErrors';

export interface StoreOptions {
  /** The image, e.g. `<workspace>/.agent-ledger/ledger.db`; journal and lock sit beside it. */
  dbPath: string;
  /** Never write: no files are created, migrations of an absent store run in memory only. */
  readonly?: boolean;
  /** Checkpoint after this many journal records (default 2000)… */
  checkpointRecords?: number;
  /** …or this many journal bytes (default 16 MiB). */
  checkpointBytes?: number;
  /**
   * Images at least this large (default 2 MiB) are checkpointed by a worker thread while writes go
   * on; smaller ones in this thread, right after the write that crossed the threshold returned.
   */
  backgroundCheckpointBytes?: number;
  lockTimeoutMs?: number;
  /** Poll interval of `watch()` in ms (default 250). */
  pollMs?: number;
}

/**
 * How a write of the embedded store runs (ledgerStore.ts): in this process's queue, under the file
 * lock, after catching up with the journal; the exact statements and values it executed are
 * appended to the journal as one record before the transaction commits. `writeAsync` is the
 * engine's form whose `fn` may await. When to checkpoint after a write is the subclass's
 * (storeCheckpoints.ts).
 */
export abstract class StoreWrites extends JournaledDatabase {
  protected readonly lock: FileLock;
  private queue: Promise<unknown> = Promise.resolve();
  /** Set while an engine's write runs across awaits: the synchronous read path must not see it. */
  protected asyncWriting = false;
  /** The engine's gate around everything that touches the in-memory database (identity until an engine writes). */
  protected exclusive: <R>(body: () => Promise<R>) => Promise<R> = (body) => body();

  protected constructor(
    SQL: SqlJsStatic,
    protected readonly options: StoreOptions,
  ) {
    super(SQL, options);
    this.lock = new FileLock(this.paths.lock, { timeoutMs: options.lockTimeoutMs });
  }

  protected abstract shouldCheckpoint(): boolean;
  protected abstract checkpointSoon(): void;

  write<T>(fn: (db: SqlWriter) => T): Promise<T> {
    this.assertOpen();
    if (this.options.readonly)
      return Promise.reject(new StoreError('readonly', 'this ledger store was opened read-only'));
    return this.enqueue(() => this.writeLocked(fn)).catch((err: unknown) => this.rethrowCoded(err));
  }

  /** A file-system failure (a full disk) as the coded StoreError it means. */
  protected rethrowCoded(err: unknown): never {
    throw fileSystemStoreError(err, path.dirname(this.paths.image));
  }

  /** Runs `job` after everything this process queued before it (writes and checkpoints). */
  protected enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job);
    this.queue = run.catch(() => undefined);
    return run;
  }

  // ---- writing ----------------------------------------------------------------------

  protected async withLock<T>(fn: () => T): Promise<T> {
    await this.lock.acquire();
    try {
      return fn();
    } finally {
      this.lock.release();
    }
  }

  private async writeLocked<T>(fn: (db: SqlWriter) => T): Promise<T> {
    const from = this._seq;
    const result = await this.withLock(() => {
      this.beginLocked(from);
      const recording = recordingWriter(this.session);
      // The record is durable before the transaction commits: a failed append rolls back.
      const value = this.session.transaction(() => {
        const v = fn(recording.writer);
        this.appendLocked(recording);
        return v;
      });
      this.afterCommitLocked(recording);
      return value;
    });
    if (this._seq !== from) this._onDidChange.fire({ fromSeq: from, toSeq: this._seq, external: false });
    return result;
  }

  /**
   * The engine's write (embedded/embeddedEngine.ts): `write` with an `fn` that may await. The
   * file lock is taken first, then `exclusive` wraps everything that touches the in-memory
   * database (catch-up, transaction, journal append), so the engine keeps its own reads out of a
   * write in progress without blocking them while another process holds the lock.
   */
  writeAsync<T>(
    fn: (db: RecordingWriter) => Promise<T>,
    exclusive: <R>(body: () => Promise<R>) => Promise<R>,
  ): Promise<T> {
    this.assertOpen();
    if (this.options.readonly)
      return Promise.reject(new StoreError('readonly', 'this ledger store was opened read-only'));
    this.exclusive = exclusive;
    return this.enqueue(() => this.writeLockedAsync(fn, exclusive)).catch((err: unknown) => this.rethrowCoded(err));
  }

  private async writeLockedAsync<T>(
    fn: (db: RecordingWriter) => Promise<T>,
    exclusive: <R>(body: () => Promise<R>) => Promise<R>,
  ): Promise<T> {
    const from = this._seq;
    await this.lock.acquire();
    let result: T;
    try {
      result = await exclusive(async () => {
        this.beginLocked(from);
        const recording = recordingWriter(this.session);
        this.asyncWriting = true;
        this.session.begin();
        let value: T;
        try {
          value = await fn(recording.writer);
          this.appendLocked(recording);
          this.session.commit();
        } catch (err) {
          this.session.rollback();
          throw err;
        } finally {
          this.asyncWriting = false;
        }
        this.afterCommitLocked(recording);
        return value;
      });
    } finally {
      this.lock.release();
    }
    if (this._seq !== from) this._onDidChange.fire({ fromSeq: from, toSeq: this._seq, external: false });
    return result;
  }

  /** Under the lock, before a write's transaction: catch up (throws on damage before anything is written or cut off). */
  protected beginLocked(from: number): void {
    this.catchUp();
    if (this._seq !== from) this._onDidChange.fire({ fromSeq: from, toSeq: this._seq, external: true });
    this.journal.prepare(this._seq);
  }

  private appendLocked(recording: Recording): void {
    if (recording.statements.length > 0)
      this.journal.append({ seq: this._seq + 1, statements: recording.statements, outcomes: recording.outcomes });
  }

  private afterCommitLocked(recording: Recording): void {
    if (recording.statements.length === 0) return;
    this._seq += 1;
    if (this.shouldCheckpoint()) this.checkpointSoon();
  }
}
