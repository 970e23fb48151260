import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cliPath } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';
import { cliJson } from '../helpers/cli';

/** `agent-ledger … | head`: the reader closes the pipe before the command has printed everything. */
function runIntoClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.destroy(); // the reader is gone before the first line
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test('a reader that closes the pipe early (| head) never crashes the command, and its write still lands', async () => {
  for (const args of [['--help'], ['bb', '--help']]) {
    const r = await runIntoClosedPipe(args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /EPIPE|Unhandled/);
  }
  const repo = tempRepo();
  for (let i = 0; i < 3; i++) cliJson(['task', 'create', `Task ${i} ${'x'.repeat(200)}`, '--workspace', repo]);
  const listed = await runIntoClosedPipe(['task', 'create', 'Written while nobody reads', '--workspace', repo]);
  assert.equal(listed.code, 0, listed.stderr);
  const all = cliJson<{ tasks: { title: string }[] }>(['task', 'list', '--workspace', repo]);
  assert.ok(
    all.tasks.some((t) => t.title === 'Written while nobody reads'),
    'the write landed though its output went nowhere',
  );
});
