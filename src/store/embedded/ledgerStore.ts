import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SqlJsStatic } from 'sql.js';
import type { Disposable } from '../../core/emitter';
import type { LedgerDb, SqlReader } from '../../core/ports/store';
import { StoreError } from '../errors';
import { watchJournal } from './journalWatcher';
import { StoreCheckpoints } from './storeCheckpoints';
import type { StoreOptions } from './storeWrites';
import { migrate, latestVersion } from '../migrations';
import { loadSqlJs } from './sqlJs';

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
 * The write path is in storeWrites.ts, the checkpoints in storeCheckpoints.ts.
 *
 * Damage (a damaged image, or a journal with anything worse than a torn tail) does not stop
 * the store from opening: every read and write throws a `damaged` StoreError until the files
 * change (`agent-ledger db repair`), so each face can say so with its code instead of showing a
 * partial ledger or failing to start. Nothing is ever truncated but a torn tail.
 */
export class LedgerStore extends StoreCheckpoints implements LedgerDb {
  private watcher: Disposable | undefined;

  private constructor(SQL: SqlJsStatic, options: StoreOptions) {
    super(SQL, options);
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
      throw new StoreError(
        'tooNew',
        `${options.dbPath} was written by a newer Agent Ledger (schema v${version}, this one knows v${latestVersion}); update Agent Ledger`,
      );
    }
    if (version < latestVersion) {
      if (options.readonly) {
        // Nothing on disk yet (or an old store): migrate the in-memory copy only, and again after
        // each catch-up until a writer has migrated the store on disk.
        const inMemory = (): boolean => {
          const now = store.session.userVersion();
          if (now >= latestVersion) return false;
          store.session.transaction(() => migrate((sql) => store.session.exec(sql), now));
          return true;
        };
        inMemory();
        store.migrateInMemory = inMemory;
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
    if (this.asyncWriting)
      throw new StoreError('busy', 'an asynchronous write is in progress in this process; read through the engine');
    this.refresh();
    return fn(this.session.reader);
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
    super.close();
  }
}
