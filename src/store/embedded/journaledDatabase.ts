import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SqlJsStatic } from 'sql.js';
import { Emitter } from '../../core/emitter';
import type { SqlReader, StoreChange } from '../../core/ports/store';
import { damagedError, keepDamagedCopy } from './damage';
import { StoreError } from '../errors';
import { readImage } from './imageFile';
import type { JournalRecord } from './journal';
import { JournalFile } from './journalFile';
import { SqlSession } from './sqlSession';
import { storePaths } from './storePaths';
import type { StorePaths } from './storePaths';

/** What the reading side of a store needs to know. */
export interface JournaledDatabaseOptions {
  dbPath: string;
  readonly?: boolean;
}

/**
 * The reading side of the store (DESIGN.md): this process's in-memory sql.js copy of the image,
 * kept up to date by applying the journal's records, and the damage rules of reading (a damaged
 * image or journal sticks until the file changes). LedgerStore adds the writing side: the lock,
 * the write paths and checkpoints.
 */
export class JournaledDatabase {
  protected session: SqlSession;
  protected _seq = 0;
  protected readonly journal: JournalFile;
  protected closed = false;
  /**
   * Set by a read-only store that migrated an absent or older store in memory (ledgerStore.ts): its
   * schema is not the one on disk, so records another process appends (starting with that
   * process's own migration) replay on the image from disk, and the migration runs again in
   * memory while the disk is still behind.
   */
  protected migrateInMemory: (() => boolean) | undefined;
  /** Set while the image on disk is damaged; cleared when the file changes and loads. */
  private imageDamage: { mtimeMs: number; size: number; error: StoreError } | undefined;

  protected readonly _onDidChange = new Emitter<StoreChange>();
  readonly onDidChange = this._onDidChange.event;

  readonly paths: StorePaths;

  protected constructor(
    protected readonly SQL: SqlJsStatic,
    private readonly readOptions: JournaledDatabaseOptions,
  ) {
    this.paths = storePaths(readOptions.dbPath);
    this.journal = new JournalFile(this.paths.journal, !readOptions.readonly, this.paths.prevJournal);
    this.session = SqlSession.load(SQL, undefined, 'empty');
    try {
      this.reloadImage();
    } catch (err) {
      if (!StoreError.is(err, 'damaged')) throw err;
    }
  }

  get seq(): number {
    return this._seq;
  }

  /** The schema version the in-memory database holds (PRAGMA user_version). */
  get schemaVersion(): number {
    return this.session.userVersion();
  }

  /** Reads for the engine, which has already caught up (`refreshNow`) and keeps writes out. */
  get reader(): SqlReader {
    return this.session.reader;
  }

  /** Applies the records other processes appended since this one last looked (the engine serialises it with its reads). */
  refreshNow(): void {
    this.assertOpen();
    this.refresh();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.session.close();
    this._onDidChange.dispose();
  }

  /** Catches up when the journal changed since we last looked, and tells listeners. */
  protected refresh(): void {
    if (!this.imageDamage && !this.journal.changedOnDisk()) return;
    const from = this._seq;
    this.catchUp();
    if (this._seq !== from) this._onDidChange.fire({ fromSeq: from, toSeq: this._seq, external: true });
  }

  /** Loads the image again if it was damaged and has changed since, then applies the journal. */
  protected catchUp(): void {
    if (this.imageDamage) {
      const stat = statQuiet(this.paths.image);
      if (stat && stat.mtimeMs === this.imageDamage.mtimeMs && stat.size === this.imageDamage.size)
        throw this.imageDamage.error;
      this.imageDamage = undefined;
      this.reloadImage();
    }
    if (this.migrateInMemory) {
      this.reloadImage();
      this.journal.catchUp(this.replayer);
      if (!this.migrateInMemory()) this.migrateInMemory = undefined;
      return;
    }
    this.journal.catchUp(this.replayer);
  }

  /** The store as the journal replays into it. */
  private readonly replayer = {
    store: this as JournaledDatabase,
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
      throw new StoreError(
        'damaged',
        `record seq ${record.seq} does not replay on the image: ${(err as Error).message}`,
      );
    }
    this._seq = record.seq;
  }

  /** The image's database, checked; a damaged image throws (after keeping a copy) and sticks until the file changes. */
  private loadImage(): SqlSession {
    const stat = statQuiet(this.paths.image);
    const image = readImage(this.paths.image);
    try {
      if (image.status === 'damaged') throw new StoreError('damaged', image.problem);
      return SqlSession.load(
        this.SQL,
        image.status === 'missing' ? undefined : image.database,
        path.basename(this.paths.image),
      );
    } catch (err) {
      if (!StoreError.is(err, 'damaged')) throw err;
      const error = damagedError(
        this.paths.image,
        err.message,
        this.readOptions.readonly ? undefined : keepDamagedCopy(this.paths.image),
      );
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

  protected assertOpen(): void {
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
