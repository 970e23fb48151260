import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * The PostgreSQL server scripts/runTests.mjs started for this run (a real server, never a mock):
 * each test gets a database of its own with `createTestDatabase()`.
 */
export const pgUrl = process.env.AGENT_LEDGER_TEST_PG_URL;
export const pgPassword = process.env.AGENT_LEDGER_TEST_PG_PASSWORD;

/** `skip` value for node:test when no server is available. */
export const pgSkip: string | false = pgUrl
  ? false
  : 'no PostgreSQL test server (scripts/runTests.mjs starts one when the postgresql package is installed)';

/** The environment engines and child processes read the password from. */
export const pgEnv: NodeJS.ProcessEnv = { ...process.env, AGENT_LEDGER_DB_PASSWORD: pgPassword, PGPASSWORD: undefined };

export interface TestDatabase {
  /** postgres://ledger_admin@127.0.0.1:<port>/<name>, without the password. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

function urlFor(name: string): string {
  // Read at call time: a benchmark may start its server after this module loaded.
  const url = new URL(process.env.AGENT_LEDGER_TEST_PG_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `fn` with a client connected to the server's `postgres` database as the admin. */
export async function withAdmin<T>(fn: (client: Client) => Promise<T>, database = 'postgres'): Promise<T> {
  const url = new URL(urlFor(database));
  const client = new Client({
    host: url.hostname,
    port: Number(url.port),
    user: url.username,
    database,
    password: process.env.AGENT_LEDGER_TEST_PG_PASSWORD,
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database for one test. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `ledger_test_${randomBytes(5).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  return {
    url: urlFor(name),
    name,
    drop: () => withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
