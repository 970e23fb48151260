// `agent-ledger runner` and a SIGTERM that comes before its command has installed anything (while
// dist/cli.js loads the CLI bundle): the runner stops cleanly, as on a later SIGTERM, instead of
// being killed. The signal is sent by a preload (test/fixtures/signals) at that very moment.
// Other commands keep the default action of the signal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { cliPath } from '../helpers/mcpClient';
import { ledgerEnv } from '../helpers/testLedger';
import { tempRepo } from '../helpers/tmp';

const preload = path.resolve(__dirname, '../fixtures/signals/sigtermOnBundleLoad.cjs');

/** Runs the built CLI with the preload; resolves with how it ended (bounded: 45 s). */
function runSignalled(
  args: string[],
  repo: string,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', preload, cliPath, ...args], {
      env: { ...ledgerEnv(repo), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`agent-ledger ${args.join(' ')} did not end within 45 s: ${stderr}`));
    }, 45_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

test('a SIGTERM while the CLI loads stops the runner cleanly (exit 0, its stop reported), whatever the option order', async () => {
  const repo = tempRepo();
  for (const args of [
    ['runner', '--json', '--interval', '0.5', '--workspace', repo],
    ['--workspace', repo, 'runner', '--interval', '0.5'],
  ]) {
    const ended = await runSignalled(args, repo);
    assert.deepEqual(
      { code: ended.code, signal: ended.signal },
      { code: 0, signal: null },
      `${args.join(' ')}: ${ended.stderr}`,
    );
    assert.match(ended.stderr, /runner: stopping 0 agent\(s\)/);
  }
});

test('the early stop is for the runner alone: `runner --once` and other commands keep the signal’s default action', async () => {
  const repo = tempRepo();
  for (const args of [
    ['runner', '--once', '--workspace', repo],
    ['task', 'list', '--workspace', repo],
    ['--workspace', 'runner', 'task', 'list'],
  ]) {
    const ended = await runSignalled(args, repo);
    assert.equal(ended.signal, 'SIGTERM', `${args.join(' ')}: ${ended.stderr}`);
  }
});
