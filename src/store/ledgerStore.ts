import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SqlJsStatic } from 'sql.js';
import type { Disposable } from '../core/emitter';
import type { LedgerDb, SqlReader, SqlWriter } from '../core/ports';
import { JournaledDatabase } from './journaledDatabase';
import { BackgroundCheckpoint } from './backgroundCheckpoint';
import { installCheckpoint, withRetiredPrevious, writeCheckpoint } from './checkpointFiles';
import { StoreError } from './errors';
import { recordingWriter } from './recordingWriter';
import type { Recording, RecordingWriter } from './recordingWriter';
import { watchJournal } from './journalWatcher';
import { FileLock } from './lock';
import { migrate, latestVersion } from './migrations';
import { loadSqlJs } from './sqlJs';

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
 * The multi-process store of DESIGN.md: a sql.js image plus a journal of committed writes.
 *
 * A write takes the file lock, applies the journal records other processes appended since
 * this one last looked, runs `fn` in a transaction, appends one framed record holding the
 * exact statements and values it executed, fsyncs, commits, and releases. Reads only catch
 * up. Every few thousand records a writer checkpoints — after that write has returned, never
 * inside it: writes the image (temp file, fsync, rename) and replaces the journal with one of a
 * new generation. A small image is exported from memory under the lock; a large one is rebuilt
 * from the files by a worker thread and only installed under the lock (backgroundCheckpoint.ts).
 *
 * Damage (a damaged image, or a journal with anything worse than a torn tail) does not stop
 * the store from opening: every read and write throws a `damaged` StoreError until the files
 * change (`agent-ledger db repair`), so each face can say so with its code instead of showing a
 * partial ledger or failing to start. Nothing is ever truncated but a torn tail.
 */
export class LedgerStore extends JournaledDatabase implements LedgerDb {
  private readonly lock: FileLock;
  private queue: Promise<unknown> = Promise.resolve();
  private watcher: Disposable | undefined;
  /** Set while an engine's write runs across awaits: the synchronous read path must not see it. */
  private asyncWriting = false;
  /** The engine's gate around everything that touches the in-memory database (identity until an engine writes). */
  private exclusive: <R>(body: () => Promise<R>) => Promise<R> = (body) => body();
  private checkpointQueued = false;
  private background: BackgroundCheckpoint | undefined;

  private constructor(
    SQL: SqlJsStatic,
    private readonly options: StoreOptions,
  ) {
    super(SQL, options);
    this.lock = new FileLock(this.paths.lock, { timeoutMs: options.lockTimeoutMs });
  }

  static async open(options: StoreOptions): Promise<LedgerStore> {
    const SQL = await loadSqlJs();
    if (!options.readonly) fs.mkdirSync(path.dirname(options.dbPath), { recursive: true });
    const store = new LedgerStore(SQL, options);
    try {
      store.catchUp();
    } catch (err) {
      if (StoreError.is(err, 'damaged')) return store; // opens; every read and write says it is damaged
      store.close();
      throw err;
    }
    const version = store.session.userVersion();
    if (version > latestVersion) {
      store.close();
      throw new StoreError('tooNew', `${options.dbPath} was written by a newer Agent Ledger (schema v${version}, this one knows v${latestVersion}); update Agent Ledger`);
    }
    if (version < latestVersion) {
      if (options.readonly) {
        // Nothing on disk yet (or an old store): migrate the in-memory copy only.
        store.session.transaction(() => migrate((sql) => store.session.exec(sql), version));
      } else {
        await store.write((tx) => {
          // Another process may have migrated while we waited for the lock.
          const now = tx.get<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0;
          migrate((sql) => tx.run(sql), now);
        });
      }
    }
    return store;
  }

  read<T>(fn: (db: SqlReader) => T): T {
    this.assertOpen();
    if (this.asyncWriting) throw new StoreError('busy', 'an asynchronous write is in progress in this process; read through the engine');
    this.refresh();
    return fn(this.session.reader);
  }

  write<T>(fn: (db: SqlWriter) => T): Promise<T> {
    this.assertOpen();
    if (this.options.readonly) return Promise.reject(new StoreError('readonly', 'this ledger store was opened read-only'));
    return this.enqueue(() => this.writeLocked(fn));
  }

  /** Runs `job` after everything this process queued before it (writes and checkpoints). */
  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Notices other processes' writes within `pollMs` even when nobody reads. */
  watch(): void {
    if (this.watcher || this.closed) return;
    let reported: string | undefined;
    this.watcher = watchJournal(this.paths.journal, this.options.pollMs ?? 250, () => {
      if (this.closed) return;
      try {
        this.refresh();
        reported = undefined;
      } catch (err) {
        // Damage is reported once, not on every poll; the next read or write says it again.
        if (!StoreError.is(err, 'damaged')) throw err;
        if (reported !== err.message) console.error(`[agent-ledger] ${err.message}`);
        reported = err.message;
      }
    });
  }

  override close(): void {
    if (this.closed) return;
    this.watcher?.dispose();
    this.background?.dispose();
    super.close();
  }

  /** Forces a checkpoint now, in this thread (tests, benchmarks, `db copy`; writers do it on their own). */
  checkpoint(): Promise<void> {
    this.assertOpen();
    if (this.options.readonly) return Promise.reject(new StoreError('readonly', 'this ledger store was opened read-only'));
    return this.enqueue(() => this.checkpointInThread());
  }

  // ---- writing ----------------------------------------------------------------------

  private async withLock<T>(fn: () => T): Promise<T> {
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
  writeAsync<T>(fn: (db: RecordingWriter) => Promise<T>, exclusive: <R>(body: () => Promise<R>) => Promise<R>): Promise<T> {
    this.assertOpen();
    if (this.options.readonly) return Promise.reject(new StoreError('readonly', 'this ledger store was opened read-only'));
    this.exclusive = exclusive;
    return this.enqueue(() => this.writeLockedAsync(fn, exclusive));
  }

  private async writeLockedAsync<T>(fn: (db: RecordingWriter) => Promise<T>, exclusive: <R>(body: () => Promise<R>) => Promise<R>): Promise<T> {
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
  private beginLocked(from: number): void {
    this.catchUp();
    if (this._seq !== from) this._onDidChange.fire({ fromSeq: from, toSeq: this._seq, external: true });
    this.journal.prepare(this._seq);
  }

  private appendLocked(recording: Recording): void {
    if (recording.statements.length > 0) this.journal.append({ seq: this._seq + 1, statements: recording.statements, outcomes: recording.outcomes });
  }

  private afterCommitLocked(recording: Recording): void {
    if (recording.statements.length === 0) return;
    this._seq += 1;
    if (this.shouldCheckpoint()) this.checkpointSoon();
  }

  /**
   * Queues a checkpoint behind the write that asked for it, so that write returns first. A small
   * image is written here (the next write of this process waits the few milliseconds it takes); a
   * large one is prepared by a worker thread and writes go on meanwhile.
   */
  private checkpointSoon(): void {
    if (this.checkpointQueued || this.background?.running) return;
    this.checkpointQueued = true;
    void this.enqueue(async () => {
      this.checkpointQueued = false;
      if (this.closed || !this.shouldCheckpoint()) return;
      if (imageSize(this.paths.image) < (this.options.backgroundCheckpointBytes ?? 2 * 1024 * 1024)) {
        await this.checkpointInThread();
        return;
      }
      this.background ??= new BackgroundCheckpoint({ dbPath: this.options.dbPath, imagePath: this.paths.image }, (tmp, seq) => this.installPrepared(tmp, seq));
      void this.background.start();
    });
  }

  /**
   * Puts a worker's image in place, in the write queue and under the lock, without touching the
   * in-memory database (already current): this process's journal cursor only moves to the new
   * journal's end. The files it replaces are freed after the lock (withRetiredPrevious).
   */
  private installPrepared(tmp: string, seq: number): Promise<void> {
    return withRetiredPrevious(this.paths, () =>
      this.enqueue(() =>
        this.withLock(() => {
          if (this.closed) return fs.rmSync(tmp, { force: true });
          const installed = installCheckpoint(this.paths, tmp, seq);
          if (installed) this.journal.adopt(installed, this._seq);
        }),
      ),
    );
  }

  /** Under the lock and the engine's gate: catches up, then writes the in-memory image. */
  private async checkpointInThread(): Promise<void> {
    await this.lock.acquire();
    try {
      await this.exclusive(async () => {
        if (this.closed) return;
        this.beginLocked(this._seq);
        this.checkpointLocked();
      });
    } finally {
      this.lock.release();
    }
  }

  private shouldCheckpoint(): boolean {
    return this.journal.recordsSince(this._seq) >= (this.options.checkpointRecords ?? 2000) || this.journal.size >= (this.options.checkpointBytes ?? 16 * 1024 * 1024);
  }

  private checkpointLocked(): void {
    writeCheckpoint(this.paths, this.session.export(this._seq), this.journal, this._seq);
  }
}

function imageSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
