import { oneLine } from '../embedded/sqliteErrors';
import { StoreError } from '../errors';
import { scrub } from '../location';
import { errorMessage } from '../../core/errors';

/**
 * What a failure from the driver or the server means for the engine:
 * - `connection`: the server could not be reached or the connection broke (down, restarting,
 *   reset, a stale pooled connection). Safe to retry when COMMIT was not sent.
 * - `retryTransaction`: the server rolled the transaction back (serialization failure, deadlock).
 * - the rest are final: `auth`, `unknownDatabase`, `busy` (lock timeout), `constraint`,
 *   `aborted`, `undefinedTable`, `diskFull` (the server's disk: 53100), `sql`.
 */
export type PgFailure =
  | 'connection'
  | 'retryTransaction'
  | 'auth'
  | 'unknownDatabase'
  | 'busy'
  | 'constraint'
  | 'aborted'
  | 'undefinedTable'
  | 'diskFull'
  | 'sql';

const NODE_CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ECONNABORTED',
  'ENOTFOUND',
]);

/**
 * node-postgres's own failures carry no code, only these messages: the one place that reads
 * them (a broken socket, a client the pool handed out after its connection died, a connect
 * timeout, a pool shut down under a call).
 */
const DRIVER_CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|Client was closed|timeout expired|Connection ended|terminating connection|server closed the connection/i;

/** Classifies an error thrown by node-postgres. */
export function classifyPgError(err: unknown): PgFailure {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (/^[0-9A-Z]{5}$/.test(code)) {
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300')
      return 'connection';
    if (code === '40001' || code === '40P01') return 'retryTransaction';
    if (code === '28P01' || code === '28000') return 'auth';
    if (code === '3D000') return 'unknownDatabase';
    if (code === '55P03' || code === '57014') return 'busy';
    if (code.startsWith('23')) return 'constraint';
    if (code === '25P02') return 'aborted';
    if (code === '42P01') return 'undefinedTable';
    if (code === '53100') return 'diskFull';
    return 'sql';
  }
  if (NODE_CONNECTION_CODES.has(code)) return 'connection';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  if (/SASL|password must be a string|no password/i.test(message)) return 'auth';
  if (DRIVER_CONNECTION_MESSAGES.test(message)) return 'connection';
  return 'sql';
}

/** True for failures a retry may cure (only when COMMIT was not sent for writes). */
export function isRetryable(failure: PgFailure): boolean {
  return failure === 'connection' || failure === 'retryTransaction';
}

/**
 * The coded StoreError for a final failure. `where` names the server (a redacted URL); the
 * password is scrubbed from anything the driver said, though it never says it.
 */
export function pgStoreError(err: unknown, where: string, password: string | undefined, sql?: string): StoreError {
  if (err instanceof StoreError) return err;
  const failure = classifyPgError(err);
  const said = scrub(errorMessage(err), password);
  const statement = sql ? ` (in: ${oneLine(sql)})` : '';
  switch (failure) {
    case 'connection':
      return new StoreError('unavailable', `the PostgreSQL server at ${where} cannot be reached: ${said}`, {
        cause: err,
      });
    case 'auth': {
      // The driver words a missing password as "SASL: … client password must be a string": say what it means.
      const why = password === undefined && /password must be a string/i.test(said) ? 'no password was given' : said;
      return new StoreError(
        'authFailed',
        `PostgreSQL at ${where} refused the login: ${why}. The password comes from the URL, AGENT_LEDGER_DB_PASSWORD or PGPASSWORD (or VS Code's secret storage in the editor)`,
        { cause: err },
      );
    }
    case 'unknownDatabase':
      return new StoreError(
        'unknownDatabase',
        `the database in ${where} does not exist: ${said}. Create it (createdb) and run \`agent-ledger db init --db <url>\``,
        { cause: err },
      );
    case 'busy':
      return new StoreError('busy', `the ledger at ${where} stayed locked by another writer: ${said}`, { cause: err });
    case 'diskFull':
      return new StoreError(
        'diskFull',
        `the PostgreSQL server at ${where} has no disk space left (${said}): the write was not made; free space on the server and retry`,
        { cause: err },
      );
    case 'constraint':
      return new StoreError('constraint', `${said}${statement}`, { cause: err });
    case 'aborted':
      return new StoreError('aborted', `${said}${statement}`, { cause: err });
    default:
      return new StoreError('sql', `${said}${statement}`, { cause: err });
  }
}
