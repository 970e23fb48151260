import type { Row, SqlParams, SqlWriter } from '../../core/ports/store';
import type { Outcome, Statement } from './journal';
import { outcomeOf } from './outcomes';
import type { SqlSession } from './sqlSession';

/** A writer whose statements (with their bound values and outcomes) become one journal record. */
export interface RecordingWriter extends SqlWriter {
  /** `run`, also returning the statement's first RETURNING row. */
  runReturning(sql: string, params?: SqlParams): { changes: number; returned?: Row };
}

export interface Recording {
  writer: RecordingWriter;
  statements: Statement[];
  outcomes: Outcome[];
}

/** A writer on `session` that records what it executes, for the journal record of one write. */
export function recordingWriter(session: SqlSession): Recording {
  const statements: Statement[] = [];
  const outcomes: Outcome[] = [];
  const exec = (sql: string, params?: SqlParams) => {
    const out = session.exec(sql, params);
    statements.push(params && params.length ? [sql, params] : [sql]);
    outcomes.push(outcomeOf(sql, out));
    return out;
  };
  const writer: RecordingWriter = {
    ...session.reader,
    run: (sql, params) => {
      const { changes, lastInsertRowid } = exec(sql, params);
      return { changes, lastInsertRowid };
    },
    runReturning: (sql, params) => {
      const { changes, returned } = exec(sql, params);
      return { changes, returned };
    },
  };
  return { writer, statements, outcomes };
}
