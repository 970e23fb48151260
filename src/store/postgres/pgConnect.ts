import { Client, types } from 'pg';
import type { ClientConfig, CustomTypesConfig } from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import { StoreError } from '../errors';
import { redactUrl, resolvePassword } from '../location';

/** The NOTIFY channel every write of a ledger database announces its seq on. */
export const CHANNEL = 'agent_ledger';

const INT8 = 20;
const NUMERIC = 1700;
const BOOL = 16;

/**
 * Values as the embedded store gives them (string | number | null): int8 (ids, COUNT, SUM of
 * integers) and numeric (SUM, AVG) as numbers rather than strings, booleans (`a = b`, EXISTS) as
 * 1/0 as SQLite returns them. Ids stay far below 2^53.
 */
const typeParsers: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    if (oid === BOOL) return (value: string) => (value === 't' ? 1 : 0);
    return types.getTypeParser(oid, format ?? 'text');
  }) as CustomTypesConfig['getTypeParser'],
};

/**
 * node-postgres's client, except that a connection attempt that fails closes its socket. The driver
 * leaves the socket open when it fails on its own side during the login (no password for a server
 * that asks one: "client password must be a string"), and the process then lived until the server
 * dropped the half-done login (`authentication_timeout`, 60 s). Every connection of the store —
 * the pool's, the change feed's, the administration's — is one of these.
 */
export class LedgerPgClient extends Client {
  override connect(): Promise<Client>;
  override connect(callback: (err: Error) => void): void;
  override connect(callback?: (err: Error) => void): Promise<Client> | void {
    if (callback)
      return super.connect((err: Error) => {
        if (err) this.connection.stream.destroy();
        callback(err);
      });
    return super.connect().catch((err: unknown) => {
      this.connection.stream.destroy();
      throw err;
    });
  }
}

/** A server to connect to: the driver's configuration, and how to name it in messages. */
export interface PgTarget {
  /** The URL with its password redacted. */
  display: string;
  /** Kept to scrub it from driver messages (it is never printed). */
  password: string | undefined;
  config: ClientConfig;
}

export interface SessionLimits {
  /** A write waits this long for the commit lock before failing `busy` (default 15,000 ms). */
  lockTimeoutMs?: number;
  /** The server ends a session idle inside a transaction this long (a vanished writer's lock goes; default 10,000 ms). */
  idleInTransactionMs?: number;
}

/** The driver configuration for `url` (password from the URL or the environment, see `resolvePassword`). */
export function pgTarget(url: string, env: NodeJS.ProcessEnv = process.env, limits: SessionLimits = {}): PgTarget {
  let parsed: ClientConfig;
  try {
    parsed = parseIntoClientConfig(url);
  } catch (err) {
    throw new StoreError('badLocation', `not a valid PostgreSQL URL: ${redactUrl(url)} (${(err as Error).message})`);
  }
  const password = resolvePassword(url, env);
  const settings = `-c idle_in_transaction_session_timeout=${limits.idleInTransactionMs ?? 10_000} -c lock_timeout=${limits.lockTimeoutMs ?? 15_000}`;
  return {
    display: redactUrl(url),
    password,
    config: {
      ...parsed,
      password,
      types: typeParsers,
      application_name: 'agent-ledger',
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      options: parsed.options ? `${parsed.options} ${settings}` : settings,
    },
  };
}
