import { StoreError } from '../errors';

/**
 * A sql.js failure of one statement as a coded StoreError: `constraint` for UNIQUE, FOREIGN KEY,
 * NOT NULL and CHECK, `sql` for anything else. SQLite reports the kind only in its message, so
 * this is the one place that reads it (the PostgreSQL engine maps SQLSTATEs the same way).
 */
export function sqliteStatementError(err: unknown, sql: string): unknown {
  if (err instanceof StoreError || !(err instanceof Error)) return err;
  const constraint = /\b(UNIQUE|FOREIGN KEY|NOT NULL|CHECK|PRIMARY KEY) constraint failed/i.test(err.message);
  return new StoreError(constraint ? 'constraint' : 'sql', `${err.message} (in: ${oneLine(sql)})`, { cause: err });
}

/** The start of a statement on one line, for messages. */
export function oneLine(sql: string): string {
  const text = sql.replace(/\s+/g, ' ').trim();
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}
