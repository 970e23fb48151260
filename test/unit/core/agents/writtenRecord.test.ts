// The record of the agent files the ledger wrote, written by two real processes at the same
// moment (the editor, a runner, `mcp serve` and the CLI all open a workspace): no entry lost,
// none ever read half-written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readWrittenRecord, sha256, writtenRecordFolder } from '../../../../src/core/agents/writtenRecord';
import { tempDir } from '../../../helpers/tmp';

const fixture = path.join(__dirname, 'writtenRecordRacer.fixture.ts');

function racer(workspace: string, label: string, other: string, count: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, workspace, label, other, String(count)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const ready = new Promise<void>((resolve) =>
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.startsWith('ready\n')) resolve();
    }),
  );
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    ready,
    go: () => child.stdin.end('go\n'),
    done: async () => ({ code: await exited, lines: stdout.split('\n').filter(Boolean), stderr }),
  };
}

test('two processes recording at the same moment: every entry present after, none read torn', async () => {
  const ws = tempDir();
  const folder = path.join(ws, '.agent-ledger', 'agents');
  const count = 300;
  const a = racer(ws, 'a', 'b', count);
  const b = racer(ws, 'b', 'a', count);
  await Promise.all([a.ready, b.ready]);
  a.go();
  b.go();
  const [ra, rb] = await Promise.all([a.done(), b.done()]);
  for (const r of [ra, rb]) {
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.lines, ['ready', 'done'], 'no racer read a missing record or a torn entry');
  }
  const names = ['a', 'b'].flatMap((label) => Array.from({ length: count }, (_, i) => `${label}-${i}.yaml`));
  const record = readWrittenRecord(ws, folder, [...names, 'both.yaml']);
  assert.equal(record.kind, 'present');
  if (record.kind !== 'present') return;
  assert.deepEqual([...record.problems.keys()], []);
  const missing = names.filter((n) => record.hashes.get(n) !== sha256(`${n.split('-')[0]} ${parseInt(n.slice(2))}\n`));
  assert.deepEqual(missing, [], 'each racer’s every entry, with the hash of what it recorded');
  // The entry both wrote last holds one whole entry of either, never a mix.
  const last = record.hashes.get('both.yaml');
  assert.ok(
    last === sha256(`a ${count - 1}\n`) || last === sha256(`b ${count - 1}\n`),
    `both.yaml: ${last} is one racer's last entry`,
  );
  const left = fs.readdirSync(path.join(folder, writtenRecordFolder)).filter((n) => !n.endsWith('.sha256'));
  assert.deepEqual(left, [], 'no temp file left behind');
});
