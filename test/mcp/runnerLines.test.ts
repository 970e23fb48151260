/**
 * What `agent-ledger runner` says, as a person reads it: one line per (agent, project) each time
 * its state changes — launched, held and why, ended and how — through the terminal renderer
 * (styled in a terminal, plain in a pipe, never the raw styling markers), and the same as JSON
 * lines with --json. The runner is the built CLI; the agents are the scripted clients.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fakeAgents, logIn } from '../helpers/fakeAgents';
import { cliPath, connect } from '../helpers/mcpClient';
import { cli, cliJson } from '../helpers/cli';
import { ledgerEnv } from '../helpers/testLedger';
import { tempDir, tempRepo } from '../helpers/tmp';
import { until } from '../helpers/processes';
import { runnerOnce } from './pmHelpers';

/** A PATH holding node and git only: no agent client is installed there. */
function bareBin(): string {
  const bin = tempDir('agent-ledger-bare-bin-');
  const git = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  fs.symlinkSync(git, path.join(bin, 'git'));
  return bin;
}

function envOf(repo: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...ledgerEnv(repo), ...extra };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  return env;
}

const markers = /[\uE000\uE001]/;

test('runner --once says, per (agent, project), why it launched nothing: client not installed, nothing queued — plain in a pipe, styled in a terminal, as JSON with --json', () => {
  const repo = tempRepo();
  const ws = ['--workspace', repo];
  cliJson(['task', 'create', 'Fix the parser', '--agent', 'coder', ...ws]);
  cliJson(['project', 'add-agent', 'prj-1', 'reviewer', ...ws]);
  const env = envOf(repo, { PATH: bareBin() });

  const piped = spawnSync(process.execPath, [cliPath, 'runner', '--once', ...ws], { env, encoding: 'utf8' });
  assert.equal(piped.status, 0, piped.stderr);
  assert.deepEqual(piped.stdout.split('\n').filter(Boolean), [
    "held coder · task-1 · prj-1: claude is not installed: it is not on the runner's PATH (npm install -g @anthropic-ai/claude-code)",
    'idle reviewer · prj-1: no task queued (queue one: agent-ledger task create "…" --agent reviewer)',
  ]);
  assert.doesNotMatch(piped.stdout, markers);
  assert.doesNotMatch(piped.stdout, /\x1b/, 'no styling in a pipe');

  // In a terminal (a pseudo-terminal from util-linux's script): real SGR sequences, never the markers.
  const command = [process.execPath, cliPath, 'runner', '--once', ...ws].map((a) => `'${a}'`).join(' ');
  const script = spawnSync('sh', ['-c', 'command -v script'], { encoding: 'utf8' }).stdout.trim();
  assert.ok(script, "util-linux's script is needed for the terminal half (apt-get install bsdutils)");
  const tty = spawnSync(script, ['-qfec', command, '/dev/null'], { env, encoding: 'utf8', input: '' });
  assert.equal(tty.status, 0, tty.stderr);
  assert.doesNotMatch(tty.stdout, markers);
  assert.doesNotMatch(tty.stdout, /(^|[^\x1b[])(33|39|22|1)(held|idle|m)/, 'no bare SGR numbers');
  const lines = tty.stdout.split(/\r?\n/).filter(Boolean);
  assert.equal(lines.length, 2, tty.stdout);
  assert.ok(lines[0].startsWith('\x1b[33mheld\x1b[39m \x1b[1mcoder\x1b[22m · task-1 · prj-1: claude is not installed'));
  assert.ok(lines[1].startsWith('\x1b[33midle\x1b[39m \x1b[1mreviewer\x1b[22m · prj-1: no task queued'));

  const json = runnerOnce(repo, { PATH: env.PATH ?? '' });
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(json.events, [
    {
      kind: 'held',
      agentId: 'coder',
      projectId: 'prj-1',
      taskId: 'task-1',
      reason: 'clientMissing',
      detail: "claude is not installed: it is not on the runner's PATH (npm install -g @anthropic-ai/claude-code)",
      blockedBy: [],
    },
    {
      kind: 'held',
      agentId: 'reviewer',
      projectId: 'prj-1',
      taskId: null,
      reason: 'noTask',
      detail: 'no task queued for reviewer in prj-1',
      blockedBy: [],
    },
  ]);
  // Held for a missing client: no worktree, no session, no run was made for it.
  assert.equal(fs.existsSync(path.join(repo, '.agent-ledger', 'worktrees')), false);
  assert.deepEqual(cliJson<{ sessions: unknown[] }>(['session', 'list', ...ws]).sessions, []);
});

test('with no project that has an agent, runner --once says there is nothing to launch and how to queue a task', () => {
  const repo = tempRepo();
  const r = spawnSync(process.execPath, [cliPath, 'runner', '--once', '--workspace', repo], {
    env: envOf(repo, {}),
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(
    r.stdout,
    'idle no active project has an agent: there is nothing to launch yet; queue a task: agent-ledger task create "…" --agent coder\n',
  );
});

test('the runner’s lines of a run: launched (task, client, run, log), ended with tokens and cost; a failed run says why, with its last error line and its log, then cools down until a time', async () => {
  const repo = tempRepo();
  const ws = ['--workspace', repo];
  const fakes = fakeAgents();
  cliJson(['task', 'create', 'Fix the parser', '--agent', 'coder', ...ws]);
  const good = fakes.env({
    steps: [logIn, { call: 'get_my_task', args: {} }, { call: 'report_completed', args: { result: 'success' } }],
    usage: { costUsd: 0.0421, inputTokens: 1200, outputTokens: 300 },
  });
  const ok = spawnSync(process.execPath, [cliPath, 'runner', '--once', ...ws], {
    env: envOf(repo, good),
    encoding: 'utf8',
  });
  assert.equal(ok.status, 0, ok.stderr);
  const log = path.join(repo, '.agent-ledger', 'runs', 'exec-1.log');
  assert.deepEqual(
    ok.stdout
      .split('\n')
      .filter(Boolean)
      // A PostgreSQL ledger's runs keep their own folder (runs/pg-<hash>/, ledgerPaths.ts runsDirOf).
      .map((l) =>
        l
          .replace(/pid \d+/, 'pid N')
          .replace(/after \d+\.\d s/, 'after T s')
          .replace(/\/runs\/pg-[0-9a-f]{8}\//, '/runs/'),
      ),
    [
      `launched coder · task-1 · prj-1 · claude · exec-1 · pid N · log ${log}`,
      'ended coder · task-1 · prj-1 · exec-1: completed (success) · exit 0 after T s · 1,200 in / 300 out tokens · $0.0421',
    ],
  );
  // The log the line names is there (in runs/pg-<hash>/ for a PostgreSQL ledger).
  const printed = / · log (\S+)$/m.exec(ok.stdout)?.[1];
  assert.ok(printed && fs.existsSync(printed), printed);

  // A run that fails: the runner polls on (every 0.3 s) and says, once, until when the pair cools down.
  cliJson(['task', 'create', 'Flaky work', '--agent', 'coder', ...ws]);
  const bad = fakes.env({
    steps: [
      logIn,
      { call: 'get_my_task', args: {} },
      { print: 'Error: the model endpoint refused the request', stream: 'stderr' },
      { exit: 3 },
    ],
  });
  const runner = spawn(process.execPath, [cliPath, 'runner', '--interval', '0.3', ...ws], {
    env: envOf(repo, bad),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  // A PostgreSQL ledger's runs keep their own folder (runs/pg-<hash>/, ledgerPaths.ts runsDirOf).
  runner.stdout.on('data', (d: Buffer) => (out += d.toString().replace(/\/runs\/pg-[0-9a-f]{8}\//g, '/runs/')));
  const exited = new Promise<number | null>((resolve) => runner.on('exit', (code) => resolve(code)));
  try {
    await until('the cool-down line', () => /cooling down until/.test(out), 60_000);
    // A few more polls: the same state is not said again.
    await new Promise((r) => setTimeout(r, 1200));
  } finally {
    runner.kill('SIGINT');
  }
  assert.equal(await exited, 0);
  const lines = out
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace(/pid \d+/, 'pid N').replace(/after \d+\.\d s/, 'after T s'));
  const log2 = path.join(repo, '.agent-ledger', 'runs', 'exec-2.log');
  assert.equal(lines.length, 3, out);
  assert.equal(lines[0], `launched coder · task-2 · prj-1 · claude · exec-2 · pid N · log ${log2}`);
  assert.equal(
    lines[1],
    `ended coder · task-2 · prj-1 · exec-2: failed · exit 3 after T s · the agent exited with code 3: Error: the model endpoint refused the request · log ${log2}`,
  );
  assert.match(
    lines[2],
    /^held coder · prj-1: cooling down until \d\d:\d\d:\d\d after a failed run \(exited with code 3\)$/,
  );
});

test('a pair whose agent logged in by itself is said to run elsewhere, once', async () => {
  const repo = tempRepo();
  const ws = ['--workspace', repo];
  cliJson(['task', 'create', 'Fix the parser', '--agent', 'coder', ...ws]);
  const key = cli(['agent', 'passkey', 'coder', ...ws], { input: 'secret passkey\n' });
  assert.equal(key.code, 0, key.stderr);
  const c = await connect(repo, ['--enable-pm']);
  try {
    await c.call('authenticate', { agent_id: 'coder', passkey: 'secret passkey', project_id: 'prj-1' });
    const r = spawnSync(process.execPath, [cliPath, 'runner', '--once', ...ws], {
      env: envOf(repo, { PATH: bareBin() }),
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(
      r.stdout,
      'held coder · prj-1: an agent session of coder is open in prj-1 (an agent that logged in by itself)\n',
    );
  } finally {
    await c.close();
  }
});
