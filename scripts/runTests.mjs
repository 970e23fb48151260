// Runs the node:test suites (TypeScript through tsx) and ends with node's summary lines.
// Usage: node scripts/runTests.mjs [unit|mcp|cli|all] [--only PATTERN]
// Unit tests run from sources; MCP and CLI tests drive the built dist/cli.js.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

const dirs = suite === 'all' ? ['test/unit', 'test/mcp', 'test/cli'] : [`test/${suite}`];
let files = dirs.flatMap(find).sort();
if (only) files = files.filter((f) => f.includes(only));
if (files.length === 0) {
  console.error(`no test files found in ${dirs.join(', ')}`);
  process.exit(1);
}
// The tests get a temporary folder of their own (TMPDIR): whatever is still in it when they end
// was left behind by a test that does not clean up, and fails the run.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-test-run-'));
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files],
  { stdio: 'inherit', env: { ...process.env, AGENT_LEDGER_TEST: '1', TMPDIR: tmp } },
);
const leftovers = readdirSync(tmp).filter((name) => !/^tsx-/.test(name)); // tsx's compile cache is the runner's own
rmSync(tmp, { recursive: true, force: true });
if (leftovers.length > 0) {
  console.error(`\n✖ the tests left ${leftovers.length} temporary file(s) behind (clean up with test/helpers/tmp.ts tempDir): ${leftovers.join(', ')}`);
  process.exit(result.status || 1);
}
process.exit(result.status ?? 1);
