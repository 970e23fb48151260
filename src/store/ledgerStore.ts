import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Database, SqlJsStatic, Statement as SqlJsStatement } from 'sql.js';
import { Emitter } from '../core/emitter';
import type { LedgerDb, SqlParams, SqlReader, SqlWriter, StoreChange } from '../core/ports';
import { StoreError } from './errors';
import { encodeHeader, encodeRecord, HEADER_SIZE, readHeader, readRecords } from './journal';
import type { JournalRecord, Statement } from './journal';
import { FileLock } from './lock';
import { migrate, latestVersion } from './migrations';
import { loadSqlJs } from './sqlJs';
import { fsyncDir, writeFileDurable } from '../core/files/durableWrite';

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

export interface StorePaths {
  image: string;
  journal: string;
  lock: string;
}

export function storePaths(dbPath: string): StorePaths {
  const base = dbPath.replace(/\.db$/, '');
  return { image: dbPath, journal: `${base}.journal`, lock: `${base}.lock` };
}

const META_TABLE = 'CREATE TABLE IF NOT EXISTS ledger_meta (key TEXT PRIMARY KEY, value TEXT)';

/**
 * The multi-process store of DESIGN.md: a sql.js image plus a journal of committed writes.
 *
 * A write takes the file lock, applies the journal records other processes appended since
 * this one last looked, runs `fn` in a transaction, appends one framed record holding the
 * exact statements and values it executed, fsyncs, commits, and releases. Reads only catch
 * up. Every few thousand records a writer checkpoints: exports the image (temp file, fsync,
 * rename) and replaces the journal with an empty one of a new generation.
 */
export class LedgerStore implements LedgerDb {
  private db: Database;
  private _seq = 0;
  private generation: number | undefined;
  private offset = HEADER_SIZE;
  private trailing = false;
  /** Sequence number the current journal file starts after. */
  private baseSeq = 0;
  private journalStat: { ino: number; size: number; mtimeMs: number } | undefined;
  private readonly cache = new Map<string, SqlJsStatement>();
  private readonly lock: FileLock;
  private queue: Promise<unknown> = Promise.resolve();
  private watcher: { timer: NodeJS.Timeout; fsWatcher?: fs.FSWatcher } | undefined;
  private closed = false;

  private readonly _onDidChange = new Emitter<StoreChange>();
  readonly onDidChange = this._onDidChange.event;

  readonly paths: StorePaths;

  private constructor(
    private readonly SQL: SqlJsStatic,
    private readonly options: StoreOptions,
  ) {
    this.paths = storePaths(options.dbPath);
    this.lock = new FileLock(this.paths.lock, { timeoutMs: options.lockTimeoutMs });
    this.db = this.loadImage();
  }

  static async open(options: StoreOptions): Promise<LedgerStore> {
    const SQL = await loadSqlJs();
    if (!options.readonly) fs.mkdirSync(path.dirname(options.dbPath), { recursive: true });
    const store = new LedgerStore(SQL, options);
    store.catchUp();
    const version = store.userVersion();
    if (version > latestVersion) {
      store.close();
      throw new StoreError('tooNew', `${options.dbPath} was written by a newer Agent Ledger (schema v${version}, this one knows v${latestVersion}); update Agent Ledger`);
    }
    if (version < latestVersion) {
      if (options.readonly) {
        // Nothing on disk yet (or an old store): migrate the in-memory copy only.
        store.db.exec('BEGIN');
        migrate(store.db.run.bind(store.db) as (sql: string) => void, version);
        store.db.exec('COMMIT');
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
    return fn(this.reader);
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
    const tick = (): void => {
      try {
        if (!this.closed) this.refresh();
      } catch (err) {
        console.error('[agent-ledger] store refresh failed:', err);
      }
    };
    const timer = setInterval(tick, this.options.pollMs ?? 250);
    timer.unref();
    let fsWatcher: fs.FSWatcher | undefined;
    try {
      fsWatcher = fs.watch(path.dirname(this.paths.journal), { persistent: false }, (_e, name) => {
        if (name === path.basename(this.paths.journal)) tick();
      });
      fsWatcher.on('error', () => undefined);
    } catch {
      // Polling alone is enough.
    }
    this.watcher = { timer, fsWatcher };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.watcher) {
      clearInterval(this.watcher.timer);
      this.watcher.fsWatcher?.close();
    }
    for (const stmt of this.cache.values()) stmt.free();
    this.cache.clear();
    this.db.close();
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
    const from = this._seq;
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.paths.journal);
    } catch {
      return;
    }
    const prev = this.journalStat;
    if (prev && prev.ino === stat.ino && prev.size === stat.size && prev.mtimeMs === stat.mtimeMs) return;
    this.catchUp();
    if (this._seq !== from) this._onDidChange.fire({ fromSeq: from, toSeq: this._seq, external: true });
  }

  /** Applies every complete journal record newer than `seq`, reloading the image when behind it. */
  private catchUp(): void {
    for (let attempt = 0; attempt < 20; attempt++) {
      let fd: number;
      try {
        fd = fs.openSync(this.paths.journal, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      try {
        const stat = fs.fstatSync(fd);
        const header = readHeader(fd);
        if (!header) throw new StoreError('corrupt', `${this.paths.journal} has no valid header`);
        if (header.generation !== this.generation) {
          if (this._seq < header.baseSeq) {
            // The records we miss were folded into a newer image by a checkpoint.
            this.reloadImage();
            if (this._seq < header.baseSeq) continue; // image not renamed yet: retry
          }
          this.generation = header.generation;
          this.baseSeq = header.baseSeq;
          this.offset = HEADER_SIZE;
        }
        const { records, end, trailing } = readRecords(fd, this.offset);
        let gap = false;
        for (const record of records) {
          if (record.seq <= this._seq) continue;
          if (record.seq !== this._seq + 1) {
            gap = true;
            break;
          }
          this.apply(record);
        }
        if (gap) {
          this.reloadImage();
          continue;
        }
        this.offset = end;
        this.trailing = trailing;
        this.journalStat = { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
        return;
      } finally {
        fs.closeSync(fd);
      }
    }
    throw new StoreError('corrupt', `could not catch up with ${this.paths.journal}: its records do not follow the image`);
  }

  private apply(record: JournalRecord): void {
    this.db.exec('BEGIN');
    try {
      for (const [sql, params] of record.statements) this.exec(sql, params);
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw new StoreError('corrupt', `journal record ${record.seq} does not replay: ${(err as Error).message}`);
    }
    this._seq = record.seq;
  }

  private loadImage(): Database {
    let bytes: Buffer | undefined;
    try {
      bytes = fs.readFileSync(this.paths.image);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    let db: Database;
    try {
      db = bytes ? new this.SQL.Database(bytes) : new this.SQL.Database();
      db.exec(META_TABLE);
    } catch (err) {
      throw new StoreError('corrupt', `${this.paths.image} is not a readable ledger image: ${(err as Error).message}`);
    }
    // The in-memory database only needs to be consistent, not durable.
    db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA foreign_keys = ON');
    const row = db.exec("SELECT value FROM ledger_meta WHERE key = 'image_seq'")[0]?.values[0]?.[0];
    this._seq = row ? Number(row) : 0;
    this.generation = undefined;
    this.offset = HEADER_SIZE;
    return db;
  }

  private reloadImage(): void {
    for (const stmt of this.cache.values()) stmt.free();
    this.cache.clear();
    const old = this.db;
    this.db = this.loadImage();
    old.close();
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
      this.catchUp();
      if (this._seq !== from) this._onDidChange.fire({ fromSeq: from, toSeq: this._seq, external: true });
      this.prepareJournal();
      const statements: Statement[] = [];
      const writer: SqlWriter = {
        ...this.reader,
        run: (sql, params) => {
          const out = this.exec(sql, params);
          statements.push(params && params.length ? [sql, params] : [sql]);
          return out;
        },
      };
      this.db.exec('BEGIN');
      let value: T;
      try {
        value = fn(writer);
        if (statements.length > 0) this.append({ seq: this._seq + 1, statements });
        this.db.exec('COMMIT');
      } catch (err) {
        this.db.exec('ROLLBACK');
        throw err;
      }
      if (statements.length > 0) {
        this._seq += 1;
        if (this.shouldCheckpoint()) this.checkpointLocked();
      }
      return value;
    });
    if (this._seq !== from) this._onDidChange.fire({ fromSeq: from, toSeq: this._seq, external: false });
    return result;
  }

  /** Under the lock: creates the journal if absent and cuts off a dead writer's torn tail. */
  private prepareJournal(): void {
    if (!fs.existsSync(this.paths.journal)) {
      this.replaceJournal(1);
      return;
    }
    if (this.trailing) {
      fs.truncateSync(this.paths.journal, this.offset);
      this.trailing = false;
    }
  }

  private append(record: JournalRecord): void {
    const bytes = encodeRecord(record);
    const fd = fs.openSync(this.paths.journal, 'r+');
    try {
      const size = fs.fstatSync(fd).size;
      if (size !== this.offset) {
        // Someone appended without the lock (a holder that stalled past staleMs): refuse
        // rather than write a record whose sequence number may collide.
        throw new StoreError('busy', `the journal changed under the lock (expected ${this.offset} bytes, found ${size}); retry`);
      }
      let written = 0;
      while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written, this.offset + written);
      fs.fdatasyncSync(fd);
      const stat = fs.fstatSync(fd);
      this.journalStat = { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
    } finally {
      fs.closeSync(fd);
    }
    this.offset += bytes.length;
  }

  private shouldCheckpoint(): boolean {
    const records = this._seq - this.baseSeq;
    return records >= (this.options.checkpointRecords ?? 2000) || this.offset >= (this.options.checkpointBytes ?? 16 * 1024 * 1024);
  }

  private checkpointLocked(): void {
    this.db.run("INSERT OR REPLACE INTO ledger_meta (key, value) VALUES ('image_seq', ?)", [String(this._seq)]);
    const bytes = this.db.export();
    writeFileDurable(this.paths.image, bytes);
    this.replaceJournal(((this.generation ?? 0) + 1) >>> 0 || 1);
    this.removeStaleTemps();
  }

  /** Atomically replaces the journal with an empty one starting after `seq`. */
  private replaceJournal(generation: number): void {
    writeFileDurable(this.paths.journal, encodeHeader({ generation, baseSeq: this._seq }));
    this.generation = generation;
    this.baseSeq = this._seq;
    this.offset = HEADER_SIZE;
    this.trailing = false;
    const stat = fs.statSync(this.paths.journal);
    this.journalStat = { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
    fsyncDir(path.dirname(this.paths.journal));
  }

  private removeStaleTemps(): void {
    const dir = path.dirname(this.paths.image);
    for (const name of fs.readdirSync(dir)) {
      if (!name.includes('.tmp-')) continue;
      const file = path.join(dir, name);
      try {
        if (Date.now() - fs.statSync(file).mtimeMs > 60_000) fs.unlinkSync(file);
      } catch {
        /* gone already */
      }
    }
  }

  // ---- sql --------------------------------------------------------------------------

  private readonly reader: SqlReader = {
    get: <T>(sql: string, params?: SqlParams): T | undefined => this.query<T>(sql, params, true)[0],
    all: <T>(sql: string, params?: SqlParams): T[] => this.query<T>(sql, params, false),
  };

  private statement(sql: string): SqlJsStatement {
    let stmt = this.cache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      if (this.cache.size > 500) {
        for (const s of this.cache.values()) s.free();
        this.cache.clear();
      }
      this.cache.set(sql, stmt);
    }
    return stmt;
  }

  private query<T>(sql: string, params: SqlParams | undefined, first: boolean): T[] {
    const stmt = this.statement(sql);
    try {
      if (params && params.length) stmt.bind(params as never);
      const rows: T[] = [];
      while (stmt.step()) {
        rows.push(stmt.getAsObject() as T);
        if (first) break;
      }
      return rows;
    } finally {
      stmt.reset();
    }
  }

  private exec(sql: string, params?: SqlParams): { changes: number; lastInsertRowid: number } {
    if (/^\s*(PRAGMA|CREATE|DROP|ALTER)\b/i.test(sql)) {
      // Schema statements invalidate cached statements; run them uncached.
      for (const stmt of this.cache.values()) stmt.free();
      this.cache.clear();
      this.db.run(sql, params as never);
    } else {
      const stmt = this.statement(sql);
      try {
        if (params && params.length) stmt.bind(params as never);
        while (stmt.step()) {
          /* drain RETURNING rows */
        }
      } finally {
        stmt.reset();
      }
    }
    const changes = this.db.getRowsModified();
    const lastInsertRowid = Number(this.query<{ id: number }>('SELECT last_insert_rowid() AS id', undefined, true)[0]?.id ?? 0);
    return { changes, lastInsertRowid };
  }

  private userVersion(): number {
    return Number(this.db.exec('PRAGMA user_version')[0]?.values[0]?.[0] ?? 0);
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError('closed', 'the ledger store is closed');
  }
}
