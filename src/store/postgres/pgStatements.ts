import type { ClientBase } from 'pg';
import type { Row, SqlParams } from '../../core/ports/store';
import { insertedKey, withReturning } from '../engine';
import type { AsyncSqlReader, AsyncSqlWriter } from '../engine';
import { StoreError } from '../errors';
import type { StatementGuard } from '../statementGuard';
import { CHANNEL } from './pgConnect';
import { classifyPgError, isRetryable, pgStoreError } from './pgErrors';
import { toPgPlaceholders } from './placeholders';

/**
 * A failure a retry may cure (the connection broke, or the server rolled the transaction back
 * for a serialization failure or deadlock). The engine retries the whole call while its deadline
 * allows, and throws this (`unavailable`) when it does not.
 */
export class TransientPgError extends StoreError {
  constructor(
    message: string,
    readonly original: unknown,
  ) {
    super('unavailable', message, { cause: original });
  }
}

/** How statements report failures: transient ones become TransientPgError, the rest coded StoreErrors. */
export interface ErrorContext {
  where: string;
  password: string | undefined;
}

/** Turns a driver failure into what the engine throws. */
export function wrapPgError(err: unknown, ctx: ErrorContext, sql?: string): StoreError {
  if (err instanceof StoreError) return err;
  if (isRetryable(classifyPgError(err)))
    return new TransientPgError(pgStoreError(err, ctx.where, ctx.password).message, err);
  return pgStoreError(err, ctx.where, ctx.password, sql);
}

/** Runs one query, its failure wrapped. */
export async function query<R extends Row = Row>(
  client: ClientBase,
  ctx: ErrorContext,
  sql: string,
  params?: SqlParams,
): Promise<R[]> {
  try {
    const result = await client.query<R>(sql, params as unknown[] | undefined);
    return result.rows;
  } catch (err) {
    throw wrapPgError(err, ctx, sql);
  }
}

/** Runs the statement's text as the domain wrote it (with `?`). */
function domainQuery<R extends Row = Row>(
  client: ClientBase,
  ctx: ErrorContext,
  sql: string,
  params?: SqlParams,
): Promise<R[]> {
  return query<R>(client, ctx, toPgPlaceholders(sql), params);
}

/** The port's reader on one connection (inside the read's transaction). */
export function readerOn(client: ClientBase, ctx: ErrorContext, guard: StatementGuard): AsyncSqlReader {
  return {
    get: <T>(sql: string, params?: SqlParams) =>
      guard.run(async () => (await domainQuery(client, ctx, sql, params))[0] as T | undefined),
    all: <T>(sql: string, params?: SqlParams) =>
      guard.run(async () => (await domainQuery(client, ctx, sql, params)) as T[]),
  };
}

/** The port's writer on one connection; `changed` is called by every run/insert (the write then commits a new seq). */
export function writerOn(
  client: ClientBase,
  ctx: ErrorContext,
  guard: StatementGuard,
  changed: () => void,
): AsyncSqlWriter {
  return {
    ...readerOn(client, ctx, guard),
    run: (sql: string, params?: SqlParams) =>
      guard.run(async () => {
        changed();
        try {
          const result = await client.query(toPgPlaceholders(sql), params as unknown[] | undefined);
          return { changes: result.rowCount ?? 0 };
        } catch (err) {
          throw wrapPgError(err, ctx, sql);
        }
      }),
    insert: (sql: string, params?: SqlParams) =>
      guard.run(async () => {
        changed();
        const text = withReturning(sql);
        return insertedKey((await domainQuery(client, ctx, text, params))[0], text);
      }),
  };
}

/** Starts a write: the transaction, and the clock row's lock that serialises every writer of the database. */
export const BEGIN_WRITE = 'BEGIN; SELECT seq FROM ledger_clock WHERE id = 1 FOR UPDATE';

/** Starts a read: one snapshot for every statement of the read. */
export const BEGIN_READ = 'BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY';

/**
 * Ends a write that changed something, in one round trip: bumps the clock, records the write's
 * id (for the ambiguous-COMMIT check), prunes ids older than an hour every 256 writes, announces
 * the seq on the channel (delivered at commit), and commits. `writeId` and `origin` are our own
 * hex strings, safe as literals.
 */
export function commitSql(writeId: string, origin: string): string {
  return `WITH c AS (UPDATE ledger_clock SET seq = seq + 1 WHERE id = 1 RETURNING seq),
  w AS (INSERT INTO ledger_writes (write_id, seq) SELECT '${writeId}', seq FROM c),
  p AS (DELETE FROM ledger_writes WHERE (SELECT seq FROM c) % 256 = 0 AND committed_at < now() - interval '1 hour')
SELECT seq, pg_notify('${CHANNEL}', seq || ' ${origin}') AS notified FROM c;
COMMIT`;
}

/**
 * After the connection broke with COMMIT in flight: did the write `writeId` commit? Taking the
 * clock row's lock first waits for the old transaction to be over (its backend may still be
 * finishing it, or idle until the server's idle-in-transaction timeout ends it); then its id
 * is either recorded (committed: its seq) or not (rolled back: undefined, safe to run again).
 */
export async function committedSeq(
  client: ClientBase,
  ctx: ErrorContext,
  writeId: string,
  lockWaitMs: number,
): Promise<number | undefined> {
  await query(
    client,
    ctx,
    `BEGIN; SET LOCAL lock_timeout = ${Math.round(lockWaitMs)}; SELECT seq FROM ledger_clock WHERE id = 1 FOR UPDATE`,
  );
  try {
    const rows = await query<{ seq: number }>(client, ctx, 'SELECT seq FROM ledger_writes WHERE write_id = $1', [
      writeId,
    ]);
    return rows[0]?.seq;
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
  }
}
