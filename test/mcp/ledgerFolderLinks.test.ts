/**
 * Links planted in the ledger's own machine-local folders — `.agent-ledger/children/<id>/` and
 * `.agent-ledger/runs/` — arrive with a cloned repository, and child ids and `exec-N` are easy
 * to guess. One test per place the ledger writes or reads there, through the real CLI and MCP
 * server: nothing outside the workspace is written, appended to or read back, and a refusal
 * names the link.
 */
import { testStore } from '../helpers/testLedger';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, cliError, cliJson } from '../helpers/cli';
import { connect } from '../helpers/mcpClient';
import { fakeAgents, logIn } from '../helpers/fakeAgents';
import { tempDir, tempRepo } from '../helpers/tmp';
import { pmWorld, runnerOnce, runningTask } from './pmHelpers';

const ws = (repo: string) => ['--workspace', repo];
const childrenDir = (repo: string) => path.join(repo, '.agent-ledger', 'children');
const runsDir = (repo: string) => path.join(repo, '.agent-ledger', 'runs');

/** A repository, and beside it a "home folder" with a file the ledger must never touch. */
function victim(): { repo: string; out: string; bashrc: string } {
  const repo = tempRepo({ 'README.md': '# app\n' });
  const out = tempDir('agent-ledger-home-');
  const bashrc = path.join(out, '.bashrc');
  fs.writeFileSync(bashrc, 'alias ll="ls -l"\n');
  return { repo, out, bashrc };
}

function plant(link: string, target: string): void {
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(target, link);
}

const untouched = (bashrc: string) => assert.equal(fs.readFileSync(bashrc, 'utf8'), 'alias ll="ls -l"\n');

/** `agent-ledger child create --child-id <id> -- true`, refused naming the link; no child recorded. */
function createRefused(repo: string, id: string, link: string): void {
  const r = cli(['child', 'create', '--child-program', 'true', '--child-id', id, ...ws(repo), '--json', '--', 'true']);
  assert.equal(r.code, 3, `${r.stdout}${r.stderr}`);
  const error = cliError(r);
  assert.equal(error.data?.reason, 'pathOutsideWorkspace', r.stderr);
  assert.equal(error.data?.link, link);
  const listed = cliJson<{ children: { child_id: string }[] }>(['child', 'list', ...ws(repo)]);
  assert.deepEqual(
    listed.children.map((c) => c.child_id),
    [],
    'a refused create records nothing',
  );
}

describe('links in .agent-ledger/children and .agent-ledger/runs', () => {
  test('the issue’s repro: a manifest.json linked to ~/.bashrc is never overwritten', () => {
    const { repo, bashrc } = victim();
    plant(path.join(childrenDir(repo), 'c1', 'manifest.json'), bashrc);
    createRefused(repo, 'c1', '.agent-ledger/children/c1/manifest.json');
    untouched(bashrc);
  });

  test('a log <id>.log linked outside is never appended to', () => {
    const { repo, bashrc } = victim();
    plant(path.join(childrenDir(repo), 'c2', 'c2.log'), bashrc);
    createRefused(repo, 'c2', '.agent-ledger/children/c2/c2.log');
    untouched(bashrc);
  });

  test('a process record <id>.proc.json linked outside is never written', () => {
    const { repo, bashrc } = victim();
    plant(path.join(childrenDir(repo), 'c3', 'c3.proc.json'), bashrc);
    createRefused(repo, 'c3', '.agent-ledger/children/c3/c3.proc.json');
    untouched(bashrc);
  });

  test('a child folder linked outside is refused before anything is created in it', () => {
    const { repo, out, bashrc } = victim();
    plant(path.join(childrenDir(repo), 'c4'), out);
    createRefused(repo, 'c4', '.agent-ledger/children/c4');
    assert.deepEqual(fs.readdirSync(out), ['.bashrc']);
    untouched(bashrc);
  });

  test('child_spawn_codex: a codex.json linked outside is never overwritten', async () => {
    const { repo, bashrc } = victim();
    plant(path.join(childrenDir(repo), 'cx', 'codex.json'), bashrc);
    const fakes = fakeAgents();
    const c = await connect(repo, ['--enable-orchestrator'], {
      env: { ...process.env, ...fakes.env({ steps: [] }) },
    });
    try {
      const error = await c.fail('child_spawn_codex', { child_id: 'cx', prompt: 'hello', ledger_tools: false });
      assert.equal(error.data?.reason, 'pathOutsideWorkspace', JSON.stringify(error));
      assert.equal(error.data?.link, '.agent-ledger/children/cx/codex.json');
      untouched(bashrc);
      assert.deepEqual(fakes.runs(), [], 'codex never started');
    } finally {
      await c.close();
    }
  });

  test('sc://children/<id>/logs never reads a JSON Lines file outside, through a linked folder or a linked log', async () => {
    const { repo, out } = victim();
    const secretLine = `${JSON.stringify({ seq: 1, ts: 1, stream: 'stdout', message: 'SECRET-OUTSIDE' })}\n`;
    fs.writeFileSync(path.join(out, 'c5.log'), secretLine);
    fs.writeFileSync(path.join(out, 'elsewhere.jsonl'), secretLine);
    plant(path.join(childrenDir(repo), 'c5'), out);
    plant(path.join(childrenDir(repo), 'c6', 'c6.log'), path.join(out, 'elsewhere.jsonl'));
    const c = await connect(repo, ['--enable-orchestrator']);
    try {
      for (const id of ['c5', 'c6']) {
        const read = await c.client.readResource({ uri: `sc://children/${id}/logs` }).then(
          (r) => JSON.stringify(r),
          (err: Error) => `refused: ${err.message}`,
        );
        assert.doesNotMatch(read, /SECRET-OUTSIDE/, `${id}: ${read}`);
        assert.match(read, /refused: .*symbolic link/, `${id}: ${read}`);
      }
      const listed = await c.client.listResources();
      assert.ok(
        !listed.resources.some((r) => r.uri === 'sc://children/c5/logs'),
        'a linked child folder is not listed as a child',
      );
    } finally {
      await c.close();
    }
  });

  test('child_logs of a child whose folder was swapped for a link reads nothing outside', async () => {
    const { repo, out } = victim();
    const c = await connect(repo, ['--enable-orchestrator', '--child-program', 'true']);
    try {
      const child = await c.call<{ child_id: string }>('child_create', { child_id: 'c7', command: 'true' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      fs.writeFileSync(
        path.join(out, 'c7.log'),
        `${JSON.stringify({ seq: 1, ts: 1, stream: 'stdout', message: 'SECRET-OUTSIDE' })}\n`,
      );
      fs.rmSync(path.join(childrenDir(repo), child.child_id), { recursive: true });
      fs.symlinkSync(out, path.join(childrenDir(repo), child.child_id));
      const error = await c.fail('child_logs', { child_id: 'c7', wait_ms: 0 });
      assert.doesNotMatch(JSON.stringify(error), /SECRET-OUTSIDE/);
      assert.equal(error.data?.reason, 'pathOutsideWorkspace');
    } finally {
      await c.close();
    }
  });

  test('a linked .agent-ledger/runs: the runner refuses, no log, record or MCP configuration is written outside', async () => {
    const { repo, c } = await pmWorld();
    const out = tempDir('agent-ledger-home-');
    const fakes = fakeAgents();
    try {
      await runningTask(c, 'Work', 'coder', 'web');
      plant(runsDir(repo), out);
      const r = runnerOnce(repo, fakes.env({ steps: [logIn] }));
      assert.equal(r.code, 3, r.stderr);
      assert.match(r.stderr, /\.agent-ledger\/runs is a symbolic link/);
      assert.deepEqual(fs.readdirSync(out), []);
      assert.deepEqual(fakes.runs(), [], 'no agent launched');
    } finally {
      await c.close();
    }
  });

  test(
    'a run’s log, process record and MCP configuration linked outside are never written through',
    {
      // The links are planted where the workspace's own ledger keeps its runs; a PostgreSQL ledger's runs
      // go to runs/pg-<hash of its URL>/ through the same code, checked here on the file ledger.
      skip: testStore === 'postgres' ? 'runs of the workspace’s own ledger' : false,
    },
    async () => {
      const { repo, c } = await pmWorld();
      const out = tempDir('agent-ledger-home-');
      const target = path.join(out, 'victim');
      fs.writeFileSync(target, 'keep me\n');
      const fakes = fakeAgents();
      try {
        await runningTask(c, 'Work', 'coder', 'web');
        // exec-N are guessable: each refused launch uses the next one.
        for (const [i, name] of ['exec-1.log', 'exec-2.proc.json', 'exec-3.d/claude-mcp.json'].entries()) {
          plant(path.join(runsDir(repo), name), target);
          const r = runnerOnce(repo, fakes.env({ steps: [logIn] }));
          assert.equal(fs.readFileSync(target, 'utf8'), 'keep me\n', `${name}: ${r.stderr}`);
          assert.deepEqual(fs.readdirSync(out), ['victim'], name);
          assert.deepEqual(fakes.runs(), [], `${name}: the agent is not started beside a link`);
          const failed = r.events.find((e) => e.kind === 'launchFailed');
          assert.match(String(failed?.message), /symbolic link/, `${name}: ${JSON.stringify(r.events)}`);
          const logs = await c.call<{ logs: { executionId: string; status: string }[] }>('list_execution_logs', {});
          assert.equal(logs.logs.find((l) => l.executionId === `exec-${i + 1}`)?.status, 'error', name);
        }
      } finally {
        await c.close();
      }
    },
  );
});
