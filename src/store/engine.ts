/**
 * The asynchronous store port, implemented by two engines: the embedded sql.js image + journal
 * (the zero-setup default, src/store/embedded/) and PostgreSQL (src/store/postgres/).
 *
 * Written to become the domain's port (core/ports.ts) as it is: the domain writes SQLite-flavoured
 * SQL with `?` placeholders that both engines run (see docs/store-engines.md for the few rules that
 * keep one statement valid and equal on both), computes every value in TypeScript, and never sees
 * which engine it talks to.
 */
import type { Row } from '../core/ports/store';
import { StoreError } from './errors';

export type {
  AsyncSqlReader,
  AsyncSqlWriter,
  EngineDescription,
  EngineKind,
  LedgerEngine,
  Row,
  SqlParams,
  SqlValue,
  StoreChange,
  WaitOptions,
  WaitResult,
} from '../core/ports/store';

/** Default and maximum bound of a wait: under the 60 s after which MCP clients give up on a call. */
export const DEFAULT_WAIT_MS = 50_000;

/** The SQL of `insert`: ` RETURNING id` appended unless the statement returns a key itself. */
export function withReturning(sql: string): string {
  return /\bRETURNING\s+[\w"]+\s*;?\s*$/i.test(sql) ? sql : `${sql.replace(/\s*;?\s*$/, '')} RETURNING id`;
}

/** The key `insert` returns: the first column of the returned row. */
export function insertedKey(row: Row | undefined, sql: string): number {
  const value = row ? Object.values(row)[0] : undefined;
  if (value === undefined || value === null)
    throw new StoreError('sql', `insert() inserted no row: ${sql.trim().slice(0, 80)}`);
  return Number(value);
}
