import type { JournalRecord, Outcome } from './journal';
import type { SqlSession } from './sqlSession';

const DML = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i;
const PLAIN_INSERT = /^\s*INSERT\s+INTO\s+"?(\w+)"?/i;

/** What a statement just run did, for the journal (null for statements that change no rows). */
export function outcomeOf(sql: string, result: { changes: number; lastInsertRowid: number }): Outcome {
  if (!DML.test(sql)) return null;
  return result.changes === 1 && insertedTable(sql) ? [1, result.lastInsertRowid] : [result.changes];
}

/** The table of a plain single-row INSERT (no upsert), whose new rowid the journal keeps. */
function insertedTable(sql: string): string | undefined {
  if (/\bON\s+CONFLICT\b/i.test(sql)) return undefined;
  return PLAIN_INSERT.exec(sql)?.[1];
}

/**
 * Replays a record on a database that may lack records before it (repair salvaging what follows
 * lost ones), in the caller's transaction. Each plain INSERT gets the rowid it got the first
 * time, so later records that refer to it by id still do; a statement that changes a different
 * number of rows than it did, or fails (a foreign key to a lost row), throws: the record
 * depended on what was lost and is reported instead of half-applied. Records written before
 * outcomes were kept are replayed as they are.
 */
export function replayExactly(session: SqlSession, record: JournalRecord): void {
  record.statements.forEach(([sql, params], i) => {
    const result = session.exec(sql, params);
    const expected = record.outcomes?.[i];
    if (!expected) return;
    if (result.changes !== expected[0]) {
      throw new Error(
        `statement ${i + 1} changed ${result.changes} row(s) instead of ${expected[0]}: ${sql.trim().slice(0, 60)}`,
      );
    }
    const rowid = expected[1];
    const table = insertedTable(sql);
    if (rowid !== undefined && table && result.lastInsertRowid !== rowid) {
      session.exec(`UPDATE "${table}" SET rowid = ? WHERE rowid = ?`, [rowid, result.lastInsertRowid]);
    }
  });
}
