import type { Database, SqlJsStatic, Statement as SqlJsStatement } from 'sql.js';
import type { Row, SqlParams, SqlReader } from '../../core/ports/store';
import { StoreError } from '../errors';

const META_TABLE = 'CREATE TABLE IF NOT EXISTS ledger_meta (key TEXT PRIMARY KEY, value TEXT)';

/**
 * One in-memory sql.js database with a cache of prepared statements. The store replaces the
 * session when it reloads the image; nothing outside src/store sees sql.js.
 */
export class SqlSession {
  private readonly cache = new Map<string, SqlJsStatement>();

  private constructor(private readonly db: Database) {}

  /** Opens an image (or an empty database), with the store's own meta table. */
  static load(SQL: SqlJsStatic, image: Uint8Array | undefined, name: string): SqlSession {
    let db: Database;
    try {
      db = image ? new SQL.Database(image) : new SQL.Database();
      db.exec(META_TABLE);
    } catch (err) {
      throw new StoreError('damaged', `${name} is not a readable SQLite database: ${(err as Error).message}`);
    }
    // The in-memory database only needs to be consistent, not durable. It has one connection
    // (this one), so it keeps its lock: otherwise every statement outside a transaction takes
    // and drops a shared lock and looks for a hot journal through the emscripten file system,
    // which made up about a third of a read.
    db.exec(
      'PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA foreign_keys = ON; PRAGMA locking_mode = EXCLUSIVE',
    );
    return new SqlSession(db);
  }

  readonly reader: SqlReader = {
    get: <T>(sql: string, params?: SqlParams): T | undefined => this.query<T>(sql, params, true)[0],
    all: <T>(sql: string, params?: SqlParams): T[] => this.query<T>(sql, params, false),
  };

  /** Runs one statement (cached unless it changes the schema); `returned` is its first RETURNING row. */
  exec(sql: string, params?: SqlParams): { changes: number; lastInsertRowid: number; returned?: Row } {
    let returned: Row | undefined;
    if (/^\s*(PRAGMA|CREATE|DROP|ALTER)\b/i.test(sql)) {
      // Schema statements invalidate cached statements; run them uncached.
      this.clearCache();
      this.db.run(sql, params as never);
    } else {
      const stmt = this.statement(sql);
      try {
        if (params && params.length) stmt.bind(params as never);
        while (stmt.step()) {
          // Drain RETURNING rows, keeping the first.
          returned ??= stmt.getAsObject() as Row;
        }
      } finally {
        stmt.reset();
      }
    }
    const changes = this.db.getRowsModified();
    const lastInsertRowid = Number(
      this.query<{ id: number }>('SELECT last_insert_rowid() AS id', undefined, true)[0]?.id ?? 0,
    );
    return { changes, lastInsertRowid, returned };
  }

  /** Runs `fn` in a transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(fn: () => T): T {
    this.begin();
    try {
      const value = fn();
      this.commit();
      return value;
    } catch (err) {
      this.rollback();
      throw err;
    }
  }

  begin(): void {
    this.db.exec('BEGIN');
  }

  commit(): void {
    this.db.exec('COMMIT');
  }

  /** Rolls back; quiet when SQLite already rolled the transaction back by itself (some errors do). */
  rollback(): void {
    try {
      this.db.exec('ROLLBACK');
    } catch (err) {
      if (!/no transaction is active/i.test((err as Error).message)) throw err;
    }
  }

  userVersion(): number {
    return Number(this.db.exec('PRAGMA user_version')[0]?.values[0]?.[0] ?? 0);
  }

  /** SQLite's own structural check: ['ok'] or the problems it found. */
  quickCheck(): string[] {
    try {
      return (this.db.exec('PRAGMA quick_check')[0]?.values ?? []).map((row) => String(row[0]));
    } catch (err) {
      return [(err as Error).message];
    }
  }

  /** The journal sequence number the image holds (0 for a new database). */
  imageSeq(): number {
    const row = this.db.exec("SELECT value FROM ledger_meta WHERE key = 'image_seq'")[0]?.values[0]?.[0];
    return row ? Number(row) : 0;
  }

  /** The database bytes, recording `seq` in them (meta rows are never journaled). */
  export(seq: number): Uint8Array {
    this.db.run("INSERT OR REPLACE INTO ledger_meta (key, value) VALUES ('image_seq', ?)", [String(seq)]);
    return this.db.export();
  }

  close(): void {
    this.clearCache();
    this.db.close();
  }

  private statement(sql: string): SqlJsStatement {
    let stmt = this.cache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      if (this.cache.size > 500) this.clearCache();
      this.cache.set(sql, stmt);
    }
    return stmt;
  }

  private query<T>(sql: string, params: SqlParams | undefined, first: boolean): T[] {
    const stmt = this.statement(sql);
    try {
      if (params && params.length) stmt.bind(params as never);
      const rows: T[] = [];
      // Column names once per call: getAsObject() asks sql.js for them again on every row, which
      // made a 100k-row read about twice as slow (the Explorer's roll-up of the stigmergy field).
      let names: string[] | undefined;
      while (stmt.step()) {
        names ??= stmt.getColumnNames();
        const values = stmt.get();
        const row: Record<string, unknown> = {};
        for (let i = 0; i < names.length; i++) row[names[i]] = values[i];
        rows.push(row as T);
        if (first) break;
      }
      return rows;
    } finally {
      stmt.reset();
    }
  }

  private clearCache(): void {
    for (const stmt of this.cache.values()) stmt.free();
    this.cache.clear();
  }
}
