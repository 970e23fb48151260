import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SqlJsStatic } from 'sql.js';
import { Emitter } from '../core/emitter';
import type { Disposable } from '../core/emitter';
import type { LedgerDb, SqlReader, SqlWriter, StoreChange } from '../core/ports';
import { writeCheckpoint } from './checkpointFiles';
import { damagedError, keepDamagedCopy } from './damage';
import { StoreError } from './errors';
import { readImage } from './imageFile';
import type { JournalRecord, Outcome, Statement } from './journal';
import { JournalFile } from './journalFile';
import { outcomeOf } from './outcomes';
import { watchJournal } from './journalWatcher';
import { FileLock } from './lock';
import { migrate, latestVersion } from './migrations';
import { SqlSession } from './sqlSession';
import { loadSqlJs } from './sqlJs';
import { storePaths } from './storePaths';
import type { StorePaths } from './storePaths';

export interface StoreOptions {
  /** The image, e.g. `<workspace>/.agent-ledger/ledger.db`; journal and lock sit beside it. */
  dbPath: string;
  /** Never write: no files are created, migrations of an absent store run in memory only. */
  readonly?: boolean;
  /** Checkpoint after this many journal records (default 2000)… */
  checkpointRecords?: number;
  /** …or this many journal bytes (default 16 MiB). */
  checkpointBytes?: number;
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
 * up. Every few thousand records a writer checkpoints: exports the image (temp file, fsync,
 * rename) and replaces the journal with an empty one of a new generation.
 *
 * Damage (a damaged image, or a journal with anything worse than a torn tail) does not stop
 * the store from opening: every read and write throws a `damaged` StoreError until the files
 * change (`agent-ledger db repair`), so each face can say so with its code instead of showing a
 * partial ledger or failing to start. Nothing is ever truncated but a torn tail.
 */
export class LedgerStore implements LedgerDb {
  private session: SqlSession;
  private _seq = 0;
  private readonly journal: JournalFile;
  private readonly lock: FileLock;
  private queue: Promise<unknown> = Promise.resolve();
  private watcher: Disposable | undefined;
  private closed = false;
  /** Set while the image on disk is damaged; cleared when the file changes and loads. */
  private imageDamage: { mtimeMs: number; size: number; error: StoreError } | undefined;

  private readonly _onDidChange = new Emitter<StoreChange>();
  readonly onDidChange = this._onDidChange.event;

  readonly paths: StorePaths;

  private constructor(
    private readonly SQL: SqlJsStatic,
    private readonly options: StoreOptions,
  ) {
    this.paths = storePaths(options.dbPath);
    this.journal = new JournalFile(this.paths.journal, !options.readonly);
    this.lock = new FileLock(this.paths.lock, { timeoutMs: options.lockTimeoutMs });
    this.session = SqlSession.load(SQL, undefined, 'empty');
    try {
      this.reloadImage();
    } catch (err) {
      if (!StoreError.is(err, 'damaged')) throw err;
    }
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

  get seq(): number {
    return this._seq;
  }

  read<T>(fn: (db: SqlReader) => T): T {
    this.assertOpen();
    this.refresh();
    return fn(this.session.reader);
  }

  write<T>(fn: (db: SqlWriter) => T): Promise<T> {
    this.assertOpen();
    if (this.options.readonly) return Promise.reject(new StoreError('readonly', 'this ledger store was opened read-only'));
    const run = this.queue.then(() => this.writeLocked(fn));
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

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.watcher?.dispose();
    this.session.close();
    this._onDidChange.dispose();
  }

  /** Forces a checkpoint now (tests and benchmarks; writers do it on their own). */
  async checkpoint(): Promise<void> {
    await this.write(() => undefined);
    await this.withLock(() => this.checkpointLocked());
  }

  // ---- reading and applying the journal ----------------------------------------------

  /** Catches up when the journal changed since we last looked, and tells listeners. */
  private refresh(): void {
    if (!this.imageDamage && !this.journal.changedOnDisk()) return;
    const from = this._seq;
    this.catchUp();
    if (this._seq !== from) this._onDidChange.fire({ fromSeq: from, toSeq: this._seq, external: true });
  }

  /** Loads the image again if it was damaged and has changed since, then applies the journal. */
  private catchUp(): void {
    if (this.imageDamage) {
      const stat = statQuiet(this.paths.image);
      if (stat && stat.mtimeMs === this.imageDamage.mtimeMs && stat.size === this.imageDamage.size) throw this.imageDamage.error;
      this.imageDamage = undefined;
      this.reloadImage();
    }
    this.journal.catchUp(this.replayer);
  }

  /** The store as the journal replays into it. */
  private readonly replayer = {
    store: this as LedgerStore,
    get seq(): number {
      return this.store._seq;
    },
    apply(record: JournalRecord): void {
      this.store.apply(record);
    },
    reloadImage(): void {
      this.store.reloadImage();
    },
  };

  private apply(record: JournalRecord): void {
    try {
      this.session.transaction(() => {
        for (const [sql, params] of record.statements) this.session.exec(sql, params);
      });
    } catch (err) {
      throw new StoreError('damaged', `record seq ${record.seq} does not replay on the image: ${(err as Error).message}`);
    }
    this._seq = record.seq;
  }

  /** The image's database, checked; a damaged image throws (after keeping a copy) and sticks until the file changes. */
  private loadImage(): SqlSession {
    const stat = statQuiet(this.paths.image);
    const image = readImage(this.paths.image);
    try {
      if (image.status === 'damaged') throw new StoreError('damaged', image.problem);
      return SqlSession.load(this.SQL, image.status === 'missing' ? undefined : image.database, path.basename(this.paths.image));
    } catch (err) {
      if (!StoreError.is(err, 'damaged')) throw err;
      const error = damagedError(this.paths.image, err.message, this.options.readonly ? undefined : keepDamagedCopy(this.paths.image));
      this.imageDamage = { mtimeMs: stat?.mtimeMs ?? 0, size: stat?.size ?? 0, error };
      throw error;
    }
  }

  private reloadImage(): void {
    const session = this.loadImage();
    this.session.close();
    this.session = session;
    this._seq = session.imageSeq();
    this.journal.rewind();
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
      // Throws on damage before anything is written or cut off.
      this.catchUp();
      if (this._seq !== from) this._onDidChange.fire({ fromSeq: from, toSeq: this._seq, external: true });
      this.journal.prepare(this._seq);
      const statements: Statement[] = [];
      const outcomes: Outcome[] = [];
      const writer: SqlWriter = {
        ...this.session.reader,
        run: (sql, params) => {
          const out = this.session.exec(sql, params);
          statements.push(params && params.length ? [sql, params] : [sql]);
          outcomes.push(outcomeOf(sql, out));
          return out;
        },
      };
      // The record is durable before the transaction commits: a failed append rolls back.
      const value = this.session.transaction(() => {
        const v = fn(writer);
        if (statements.length > 0) this.journal.append({ seq: this._seq + 1, statements, outcomes });
        return v;
      });
      if (statements.length > 0) {
        this._seq += 1;
        if (this.shouldCheckpoint()) this.checkpointLocked();
      }
      return value;
    });
    if (this._seq !== from) this._onDidChange.fire({ fromSeq: from, toSeq: this._seq, external: false });
    return result;
  }

  private shouldCheckpoint(): boolean {
    return this.journal.recordsSince(this._seq) >= (this.options.checkpointRecords ?? 2000) || this.journal.size >= (this.options.checkpointBytes ?? 16 * 1024 * 1024);
  }

  private checkpointLocked(): void {
    writeCheckpoint(this.paths, this.session.export(this._seq), this.journal, this._seq);
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError('closed', 'the ledger store is closed');
  }
}

function statQuiet(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}
