// Runs the node:test suites (TypeScript through tsx) and ends with node's summary lines.
// Usage: node scripts/runTests.mjs [unit|mcp|cli|clients|all] [--only PATTERN] [--pg]
// --pg (or AGENT_LEDGER_TEST_DB=postgres): the built server and CLI run on PostgreSQL, a fresh
// database per test workspace (test/helpers/testLedger.ts) — `npm run test:pg`.
// Unit tests run from sources; MCP and CLI tests drive the built dist/cli.js.
// When a selected suite uses test/helpers/postgres.ts, a throwaway PostgreSQL server is started
// for the run (scripts/testPostgres.mjs) and stopped afterwards; its URL and password reach the
// tests as AGENT_LEDGER_TEST_PG_URL / AGENT_LEDGER_TEST_PG_PASSWORD. An AGENT_LEDGER_TEST_PG_URL
// already set (with its password) is used as it is. Without the server binaries those suites
// skip, except in CI, where that fails the run.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findPostgresBin, startTestPostgres, stopTestPostgres } from './testPostgres.mjs';

const args = process.argv.slice(2);
const suite = args.find((a) => !a.startsWith('--')) ?? 'all';
const onlyIdx = args.indexOf('--only');
const only = onlyIdx >= 0 ? args[onlyIdx + 1] : undefined;

function find(dir) {
  let out = [];
  let entries = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) out = out.concat(find(file));
    else if (name.endsWith('.test.ts')) out.push(file);
  }
  return out;
}

const dirs = suite === 'all' ? ['test/unit', 'test/mcp', 'test/cli', 'test/clients'] : [`test/${suite}`];
let files = dirs.flatMap(find).sort();
// --only takes a substring or a regular expression (`--only 'pm|runner'`).
if (only) files = files.filter((f) => f.includes(only) || new RegExp(only).test(f));
if (files.length === 0) {
  console.error(`no test files found in ${dirs.join(', ')}`);
  process.exit(1);
}
const env = { ...process.env, AGENT_LEDGER_TEST: '1' };
let server;
// AGENT_LEDGER_TEST_DB=postgres runs the built server and CLI of the process-level suites on
// PostgreSQL (test/helpers/testLedger.ts: a fresh database per workspace): `npm run test:pg`.
if (args.includes('--pg')) env.AGENT_LEDGER_TEST_DB = 'postgres';
const onPostgres = env.AGENT_LEDGER_TEST_DB === 'postgres';
const needsPostgres = onPostgres || files.some((f) => /helpers\/postgres|engineKit/.test(readFileSync(f, 'utf8')));
if (needsPostgres && !process.env.AGENT_LEDGER_TEST_PG_URL) {
  if (findPostgresBin()) {
    server = await startTestPostgres();
    Object.assign(env, server.env);
    const stop = () => server && stopTestPostgres(server);
    process.on('SIGINT', () => (stop(), process.exit(130)));
    process.on('SIGTERM', () => (stop(), process.exit(143)));
  } else if (process.env.CI || onPostgres) {
    console.error('PostgreSQL server binaries not found: .ci/run installs them (apt-get install -y postgresql)');
    process.exit(1);
  } else {
    console.error(
      'note: PostgreSQL server binaries not found; the PostgreSQL suites skip (apt-get install -y postgresql)',
    );
  }
}
// The tests get a temporary folder of their own (TMPDIR): whatever is still in it when they end
// was left behind by a test that does not clean up, and fails the run.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-test-run-'));
// As root, tests start PostgreSQL servers as the `postgres` user inside it: let it pass through.
if (process.getuid?.() === 0) chmodSync(tmp, 0o711);
let status;
try {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files],
    { stdio: 'inherit', env: { ...env, TMPDIR: tmp } },
  );
  status = result.status ?? 1;
} finally {
  if (server) stopTestPostgres(server);
}
const leftovers = readdirSync(tmp).filter((name) => !/^tsx-/.test(name)); // tsx's compile cache is the runner's own
rmSync(tmp, { recursive: true, force: true });
if (leftovers.length > 0) {
  console.error(
    `\n✖ the tests left ${leftovers.length} temporary file(s) behind (clean up with test/helpers/tmp.ts tempDir): ${leftovers.join(', ')}`,
  );
  process.exit(status || 1);
}
process.exit(status);
