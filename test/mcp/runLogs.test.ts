/**
 * Runs a person can follow: `agent-ledger run list|show|log [--follow]` over the runs the runner
 * made (the scripted clients playing the agents), and run logs kept per ledger, so that two
 * ledgers of one workspace (its own file and a team ledger) never share an `exec-N` log and a
 * failed run is never credited with another run's cost.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import type { FakeScript } from '../helpers/fakeAgents';
import { fakeAgents, logIn } from '../helpers/fakeAgents';
import { cliPath, connect } from '../helpers/mcpClient';
import { cli, cliJson } from '../helpers/cli';
import { ledgerEnv } from '../helpers/testLedger';
import { tempDir, tempRepo } from '../helpers/tmp';
import { until } from '../helpers/processes';
import { createTestDatabase, pgPassword, pgSkip } from '../helpers/postgres';
import { initLedgerDb } from '../../src/store/admin/dbAdmin';
import { runnerOnce } from './pmHelpers';

interface RunRow {
  executionId: string;
  taskId: string | null;
  agentId: string;
  status: string;
  result: string | null;
  exitCode: number | null;
  costUsd: number | null;
  inputTokens: number | null;
  client: string | null;
}

/** Starts `agent-ledger runner` polling every 0.3 s; its output so far, and a stop that waits for its exit. */
function pollingRunner(repo: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [cliPath, 'runner', '--interval', '0.3', '--workspace', repo], {
    env: { ...ledgerEnv(repo), ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    output: () => out,
    stop: async () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

const runs = (repo: string, extra: string[] = []): RunRow[] =>
  cliJson<{ logs: RunRow[] }>(['run', 'list', '--workspace', repo, ...extra]).logs;

test('run list, show and log: what ran, for which task, how it ended, what it cost; log --follow prints the output as it is written and ends with the run, or at once when its reader goes away', async () => {
  const repo = tempRepo();
  const ws = ['--workspace', repo];
  const fakes = fakeAgents();
  cliJson(['task', 'create', 'Fix the parser', '--agent', 'coder', ...ws]);
  cliJson(['task', 'create', 'Flaky work', '--agent', 'reviewer', ...ws]);
  // An agent of the workspace's own, run here on another client than its definition's.
  fs.writeFileSync(path.join(repo, '.agent-ledger', 'agents', 'tester.yaml'), 'name: tester\nclient: claude-code\n');
  cliJson(['task', 'create', 'Long work', '--agent', 'tester', '--client', 'codex', ...ws]);
  const script: FakeScript = {
    steps: [],
    byAgent: {
      coder: {
        usage: { costUsd: 0.0421, inputTokens: 1200, outputTokens: 300 },
        steps: [
          logIn,
          { call: 'get_my_task', args: {} },
          { print: 'step one: reading the parser' },
          // Waits (a bounded wait of the ledger) until the test hands it a note: the next line comes after.
          { call: 'get_pending_handoffs', args: { agent_id: 'coder', wait_ms: 45_000 } },
          { print: 'step two: tests pass' },
          { call: 'report_completed', args: { result: 'success', summary: 'parser fixed' } },
        ],
      },
      // Prints every half second for 20 s: a reader that leaves is noticed at the next line.
      tester: {
        steps: [
          logIn,
          { call: 'get_my_task', args: {} },
          ...Array.from({ length: 40 }, (_, i): FakeScript['steps'] => [{ print: `tick ${i}` }, { sleep: 500 }]).flat(),
          { call: 'report_completed', args: { result: 'success' } },
        ],
      },
      reviewer: {
        steps: [
          logIn,
          { call: 'get_my_task', args: {} },
          { print: 'Error: the model endpoint refused the request', stream: 'stderr' },
          { exit: 3 },
        ],
      },
    },
  };
  const c = await connect(repo, ['--enable-pm']);
  const runner = pollingRunner(repo, fakes.env(script));
  let follow: ReturnType<typeof spawn> | undefined;
  try {
    // The tester prints every half second for 20 s. A reader that goes away: the command ends at
    // the next line it would print, not when the run does, and without an EPIPE trace.
    const long = await until('the tester’s run', () => runs(repo).find((r) => r.agentId === 'tester'));
    assert.equal(long.client, 'codex', 'the client the task asked for');
    const head = new Promise<{ code: number | null; out: string; err: string; endedAt: number }>((resolve) => {
      const pipeline = spawn(
        'bash',
        [
          '-c',
          `"${process.execPath}" "${cliPath}" run log ${long.executionId} --follow --workspace "${repo}" | head -1`,
        ],
        { env: { ...ledgerEnv(repo), NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      let err = '';
      pipeline.stdout.on('data', (d: Buffer) => (out += d.toString()));
      pipeline.stderr.on('data', (d: Buffer) => (err += d.toString()));
      pipeline.on('exit', (code) => resolve({ code, out, err, endedAt: Date.now() }));
    });

    // Follow the coder's run while it runs: its second line comes when the test lets it.
    const first = await until('exec of the coder', () => runs(repo).find((r) => r.agentId === 'coder'));
    follow = spawn(process.execPath, [cliPath, 'run', 'log', first.executionId, '--follow', ...ws], {
      env: { ...ledgerEnv(repo), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let followed = '';
    follow.stdout?.on('data', (d: Buffer) => (followed += d.toString()));
    const followExit = new Promise<number | null>((resolve) => follow?.on('exit', (code) => resolve(code)));
    await until('the first line, followed', () => followed.includes('step one'));
    assert.ok(!followed.includes('step two'));
    await c.call('create_handoff', {
      task_id: 'task-1',
      from_agent_id: 'reviewer',
      to_agent_id: 'coder',
      summary: 'go on',
    });
    await until('the second line, followed', () => followed.includes('step two'));

    const headed = await head;
    assert.equal(headed.code, 0, headed.err);
    assert.equal(headed.out.split('\n').filter(Boolean).length, 1);
    assert.equal(headed.err, '', 'no EPIPE trace');
    const longEnd = await until('the tester’s run to end', () => {
      const r = cliJson<{ log: { completedAt: string | null; status: string } }>([
        'run',
        'show',
        long.executionId,
        ...ws,
      ]).log;
      return r.status !== 'running' && r.completedAt;
    });
    assert.ok(headed.endedAt < Date.parse(longEnd), 'the reader’s leaving ended the command before the run ended');

    assert.equal(await followExit, 0, 'it ends by itself once the run has ended');
    assert.match(followed, /^· started claude \(pid \d+\)$/m);
    assert.match(followed, /^· exited with code 0 after \d+ ms$/m, 'to the runner’s last note');
    await until('the reviewer’s run to end', () =>
      runs(repo).some((r) => r.agentId === 'reviewer' && r.status !== 'running'),
    );
  } finally {
    follow?.kill();
    await c.close();
    assert.equal(await runner.stop(), 0, runner.output());
  }

  const list = runs(repo);
  // The first run of each (newest first: a failed pair may have been tried again after its cool-down).
  const byAgent = (agent: string, client: string) =>
    list.filter((r) => r.agentId === agent && r.client === client).at(-1)!;
  const coder = byAgent('coder', 'claude');
  const reviewer = byAgent('reviewer', 'claude');
  assert.deepEqual(
    [coder.taskId, coder.status, coder.result, coder.exitCode, coder.costUsd, coder.inputTokens],
    ['task-1', 'completed', 'success', 0, 0.0421, 1200],
  );
  assert.deepEqual(
    [reviewer.taskId, reviewer.status, reviewer.exitCode, reviewer.costUsd],
    ['task-2', 'error', 3, null],
  );

  const text = cli(['run', 'list', ...ws]);
  assert.equal(text.code, 0, text.stderr);
  const header = text.stdout.split('\n')[0];
  assert.match(header, /^RUN +STATUS +AGENT +TASK +PROJECT +CLIENT +STARTED +TIME +TOKENS +COST$/);
  assert.match(
    text.stdout,
    new RegExp(`^${coder.executionId} +completed +coder +task-1 +prj-1 +claude .* 1\\.2k/300 +\\$0\\.04`, 'm'),
  );
  assert.match(text.stdout, new RegExp(`^${reviewer.executionId} +error +reviewer +task-2 +prj-1 +claude `, 'm'));

  const shown = cli(['run', 'show', reviewer.executionId, ...ws]);
  assert.equal(shown.code, 0, shown.stderr);
  // The workspace's own ledger keeps its logs in .agent-ledger/runs; a team ledger (npm run test:pg), in a folder of its own there.
  const log = cliJson<{ log: { logFilePath: string } }>(['run', 'show', reviewer.executionId, ...ws]).log.logFilePath;
  assert.equal(path.basename(log), `${reviewer.executionId}.log`);
  assert.ok(log.startsWith(path.join(repo, '.agent-ledger', 'runs', path.sep)), log);
  assert.match(shown.stdout, new RegExp(`^${reviewer.executionId}  error  reviewer · task-2 · prj-1 · claude$`, 'm'));
  assert.match(shown.stdout, /· exit 3$/m);
  assert.match(shown.stdout, new RegExp(`^  folder: ${path.join(repo, '.agent-ledger', 'worktrees', 'task-2')}$`, 'm'));
  assert.ok(shown.stdout.includes(`  log: ${log} (agent-ledger run log ${reviewer.executionId})`), shown.stdout);
  assert.match(shown.stdout, /^ {2}why: the agent exited with code 3; last output:$/m);
  assert.match(shown.stdout, /^ {4}Error: the model endpoint refused the request$/m);
  const coderShown = cli(['run', 'show', coder.executionId, ...ws]).stdout;
  assert.match(coderShown, /^ {2}1\.2k tokens in, 300 tokens out · \$0\.0421$/m);
  assert.match(coderShown, /^ {2}summary: parser fixed$/m);

  const whole = cli(['run', 'log', coder.executionId, ...ws]);
  assert.match(whole.stdout, /^step one: reading the parser\nstep two: tests pass$/m);
  const entries = cli(['run', 'log', reviewer.executionId, '--json', ...ws])
    .stdout.split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { stream: string; message: string });
  assert.ok(
    entries.some((e) => e.stream === 'stderr' && e.message === 'Error: the model endpoint refused the request'),
  );

  const missing = cli(['run', 'log', 'exec-99', ...ws, '--json']);
  assert.equal(missing.code, 5);
  assert.equal(cli(['run', 'show', 'exec-99', ...ws]).code, 5);
});

/** Runs one task in `ledger` (extra CLI args naming it) with the scripted client, and returns its run. */
function runOneTask(repo: string, title: string, ledger: string[], script: FakeScript, env: Record<string, string>) {
  cliJson(['task', 'create', title, '--agent', 'coder', '--workspace', repo, ...ledger]);
  const fakes = fakeAgents();
  const r = runnerOnce(repo, { ...fakes.env(script), ...env }, ledger);
  assert.equal(r.code, 0, r.stderr);
  const ended = r.events.find((e) => e.kind === 'ended') as
    { instance: { executionId: string; logFile: string }; usage: { costUsd: number | null } | null } | undefined;
  assert.ok(ended, JSON.stringify(r.events));
  return ended;
}

const paid: FakeScript = {
  steps: [logIn, { call: 'get_my_task', args: {} }, { call: 'report_completed', args: { result: 'success' } }],
  usage: { costUsd: 0.0421, inputTokens: 1200, outputTokens: 300 },
};
const crashing: FakeScript = { steps: [logIn, { call: 'get_my_task', args: {} }, { exit: 1 }] };

function assertApart(
  repo: string,
  own: ReturnType<typeof runOneTask>,
  other: ReturnType<typeof runOneTask>,
  otherLedger: string[],
  ownLedger: string[],
): void {
  assert.equal(own.instance.executionId, 'exec-1');
  assert.equal(other.instance.executionId, 'exec-1', 'both ledgers number their runs from 1');
  assert.equal(own.instance.logFile, path.join(repo, '.agent-ledger', 'runs', 'exec-1.log'));
  assert.notEqual(other.instance.logFile, own.instance.logFile, 'never the same log file');
  assert.match(
    path.relative(path.join(repo, '.agent-ledger', 'runs'), path.dirname(other.instance.logFile)),
    /^(db|pg)-[0-9a-f]{8}$/,
  );
  assert.equal(other.usage?.costUsd ?? null, null, 'the failed run is not credited with the other ledger’s cost');
  const recorded = runs(repo, otherLedger)[0];
  assert.deepEqual([recorded.status, recorded.costUsd], ['error', null]);
  assert.equal(runs(repo, ownLedger)[0].costUsd, 0.0421, 'the first ledger’s run keeps its own');
  assert.doesNotMatch(fs.readFileSync(other.instance.logFile, 'utf8'), /0\.0421/);
}

test('a workspace used with its own ledger and another ledger file: each ledger’s runs have their own logs; a failed run never takes the other’s cost', () => {
  const repo = tempRepo();
  const other = ['--db', path.join(tempDir('agent-ledger-other-ledger-'), 'team.db')];
  // The workspace's own file ledger, even when this suite runs on PostgreSQL.
  const ownLedger = ['--db', path.join(repo, '.agent-ledger', 'ledger.db')];
  const own = runOneTask(repo, 'Paid work', ownLedger, paid, {});
  const failed = runOneTask(repo, 'Crashing work', other, crashing, {});
  assertApart(repo, own, failed, other, ownLedger);
});

test(
  'a workspace used with its own ledger and a team ledger on PostgreSQL: their runs never share a log',
  { skip: pgSkip },
  async () => {
    const db = await createTestDatabase();
    const saved = process.env.AGENT_LEDGER_DB_PASSWORD;
    // The CLI calls naming the team ledger read its password from the environment.
    process.env.AGENT_LEDGER_DB_PASSWORD = pgPassword;
    try {
      await initLedgerDb(db.url, { env: { AGENT_LEDGER_DB_PASSWORD: pgPassword } });
      const repo = tempRepo();
      const team = ['--db', db.url];
      // The workspace's own file ledger, even when this suite runs on PostgreSQL.
      const own = runOneTask(repo, 'Paid work', ['--db', path.join(repo, '.agent-ledger', 'ledger.db')], paid, {});
      const failed = runOneTask(repo, 'Crashing work', team, crashing, {});
      assert.match(path.basename(path.dirname(failed.instance.logFile)), /^pg-[0-9a-f]{8}$/);
      assert.equal(own.instance.logFile, path.join(repo, '.agent-ledger', 'runs', 'exec-1.log'));
      assert.notEqual(failed.instance.logFile, own.instance.logFile);
      assert.equal(failed.usage?.costUsd ?? null, null);
    } finally {
      if (saved === undefined) delete process.env.AGENT_LEDGER_DB_PASSWORD;
      else process.env.AGENT_LEDGER_DB_PASSWORD = saved;
      await db.drop();
    }
  },
);
