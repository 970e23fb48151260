import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Which store the built server and CLI run on in the process-level suites (test/mcp, test/cli):
 * `AGENT_LEDGER_TEST_DB=postgres` gives every workspace a fresh PostgreSQL database of its own on
 * the server scripts/runTests.mjs started (`npm run test:pg`); otherwise the embedded store in the
 * workspace, as a user gets by default.
 */
export const testStore: 'embedded' | 'postgres' =
  process.env.AGENT_LEDGER_TEST_DB === 'postgres' ? 'postgres' : 'embedded';

const cliPath = path.resolve(__dirname, '../../dist/cli.js');
const databases = new Map<string, string>();

function workspaceKey(workspace: string): string {
  const abs = path.resolve(workspace);
  try {
    return fs.realpathSync(abs);
  } catch {
    return abs;
  }
}

/**
 * A new database with the ledger schema (`agent-ledger db init`), made synchronously so the CLI
 * helper (spawnSync) can use it too. The URL carries no password: AGENT_LEDGER_DB_PASSWORD does.
 */
function createLedgerDatabase(): string {
  const base = process.env.AGENT_LEDGER_TEST_PG_URL;
  const password = process.env.AGENT_LEDGER_TEST_PG_PASSWORD;
  if (!base)
    throw new Error(
      'AGENT_LEDGER_TEST_DB=postgres needs the test server: run through scripts/runTests.mjs (npm run test:pg)',
    );
  const name = `ledger_ws_${randomBytes(5).toString('hex')}`;
  const admin = new URL(base);
  const script = `const { Client } = require('pg');
const c = new Client({ host: ${JSON.stringify(admin.hostname)}, port: ${Number(admin.port)}, user: ${JSON.stringify(decodeURIComponent(admin.username))}, database: 'postgres', password: process.env.AGENT_LEDGER_DB_PASSWORD });
c.connect().then(() => c.query('CREATE DATABASE ${name}')).then(() => c.end()).catch((e) => { console.error(e.message); process.exit(1); });`;
  const env = { ...process.env, AGENT_LEDGER_DB_PASSWORD: password, PGPASSWORD: '' };
  const created = spawnSync(process.execPath, ['-e', script], {
    encoding: 'utf8',
    env,
    cwd: path.resolve(__dirname, '../..'),
  });
  if (created.status !== 0) throw new Error(`could not create a test database: ${created.stderr}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const init = spawnSync(process.execPath, [cliPath, 'db', 'init', '--db', url.toString()], { encoding: 'utf8', env });
  if (init.status !== 0) throw new Error(`agent-ledger db init failed: ${init.stderr}`);
  return url.toString();
}

/**
 * The environment of a server or CLI process opening `workspace`'s ledger. On PostgreSQL: the
 * workspace's own database (made on first use and shared by every process of that workspace, as
 * the processes of one machine share the embedded store) through AGENT_LEDGER_DB.
 */
export function ledgerEnv(workspace: string | undefined, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (testStore === 'embedded' || workspace === undefined || env.AGENT_LEDGER_DB) return env;
  const key = workspaceKey(workspace);
  let url = databases.get(key);
  if (!url) {
    url = createLedgerDatabase();
    databases.set(key, url);
  }
  return {
    ...env,
    AGENT_LEDGER_DB: url,
    AGENT_LEDGER_DB_PASSWORD: process.env.AGENT_LEDGER_TEST_PG_PASSWORD,
    PGPASSWORD: '',
  };
}

/** The workspace a CLI command line names (`--workspace <dir>`), else its cwd. */
export function workspaceOf(args: readonly string[], cwd: string | undefined): string | undefined {
  const i = args.indexOf('--workspace');
  if (i >= 0 && args[i + 1]) return path.resolve(cwd ?? process.cwd(), args[i + 1]);
  const inline = args.find((a) => a.startsWith('--workspace='));
  if (inline) return path.resolve(cwd ?? process.cwd(), inline.slice('--workspace='.length));
  return cwd ?? process.cwd();
}
