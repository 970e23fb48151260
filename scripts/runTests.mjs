// Runs the node:test suites (TypeScript through tsx) and ends with node's summary lines.
// Usage: node scripts/runTests.mjs [unit|mcp|cli|all] [--only PATTERN]
// Unit tests run from sources; MCP and CLI tests drive the built dist/cli.js.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
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
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files],
  { stdio: 'inherit', env: { ...process.env, AGENT_LEDGER_TEST: '1' } },
);
process.exit(result.status ?? 1);
