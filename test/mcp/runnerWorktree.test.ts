/**
 * The worktree a runner's agent works in: the project's setup runs there once before the agent
 * (its output first in the run's log), a failed setup fails the run and starts no agent, and what
 * the agent leaves uncommitted is committed on the task's branch when the run ends. `agent-ledger
 * runner --once` as a real process, the scripted `claude` on PATH, a real repository.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FakeScript } from '../helpers/fakeAgents';
import { fakeAgents, logIn } from '../helpers/fakeAgents';
import { git, writeFiles } from '../helpers/tmp';
import { pmWorld, runnerOnce, runningTask } from './pmHelpers';

interface Log {
  executionId: string;
  status: string;
  error?: string | null;
  logFilePath?: string | null;
}

/** The project's settings, committed in the main checkout (where the runner reads them). */
function settle(repo: string, workspaceYaml: string): void {
  writeFiles(repo, { '.agent-ledger/workspace.yaml': workspaceYaml, '.gitignore': '.setup-ran\n' });
  git(repo, 'add', '.agent-ledger/workspace.yaml', '.gitignore');
  git(repo, 'commit', '-qm', 'agent settings');
}

test('setup runs once in the new worktree before the agent; what the agent left uncommitted is committed for it', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  try {
    settle(repo, 'setup:\n  - echo preparing the worktree\n  - touch .setup-ran\n');
    const taskId = await runningTask(c, 'New page', 'coder', 'web');
    const script: FakeScript = {
      steps: [
        logIn,
        { call: 'get_my_task', args: {} },
        { print: 'the agent is working' },
        { write: 'new-page.js', content: 'export const page = 1;\n' },
        { call: 'report_completed', args: { result: 'success', summary: 'page written, not committed' } },
      ],
    };
    const run = runnerOnce(repo, fakes.env(script));
    assert.equal(run.code, 0, run.stderr);
    const [agent] = fakes.runs();
    assert.ok(agent, `the agent was launched: ${JSON.stringify(run.events)}`);
    const worktreeRoot = git(agent.cwd, 'rev-parse', '--show-toplevel').trim();
    assert.ok(fs.existsSync(path.join(worktreeRoot, '.setup-ran')), 'the setup ran in the worktree');
    const ownGitDir = git(agent.cwd, 'rev-parse', '--absolute-git-dir').trim();
    assert.ok(fs.existsSync(path.join(ownGitDir, 'agent-ledger-setup.done')), 'and is marked done there');

    const logs = await c.call<{ logs: Log[] }>('list_execution_logs', { task_id: taskId });
    const { log: detail } = await c.call<{ log: Log }>('get_execution_log', { execution_id: logs.logs[0].executionId });
    const log = fs.readFileSync(detail.logFilePath!, 'utf8');
    const setupAt = log.indexOf('preparing the worktree');
    assert.ok(setupAt >= 0, 'the setup’s output is in the run’s log');
    assert.ok(setupAt < log.indexOf('the agent is working'), 'before the agent’s');

    // The agent wrote and never committed: the ledger did, in its name, and the branch is clean.
    assert.equal(git(agent.cwd, 'status', '--porcelain'), '');
    assert.match(
      git(agent.cwd, 'log', '-1', '--format=%an|%cn|%s').trim(),
      /^coder\|Agent Ledger\|task-\d+: changes coder left uncommitted \(run exec-\d+\)$/,
    );
    assert.equal(
      git(agent.cwd, 'show', '--name-only', '--format=', 'HEAD').trim(),
      path.relative(worktreeRoot, path.join(agent.cwd, 'new-page.js')),
    );
  } finally {
    await c.close();
  }
});

test('a failed setup fails the run with its reason and the log, and starts no agent', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  try {
    settle(repo, 'setup:\n  - echo fetching dependencies\n  - echo "registry unreachable" >&2; exit 3\n');
    const taskId = await runningTask(c, 'Broken setup', 'coder', 'web');
    const run = runnerOnce(repo, fakes.env({ steps: [logIn, { call: 'get_my_task', args: {} }] }));
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(fakes.runs(), [], 'no agent was started');
    const failed = run.events.find((e) => e.kind === 'launchFailed');
    assert.ok(failed, JSON.stringify(run.events));
    assert.match(
      String(failed.message),
      /^the worktree's setup failed: `echo "registry unreachable" >&2; exit 3` exited with code 3: registry unreachable$/,
    );
    const logs = await c.call<{ logs: Log[] }>('list_execution_logs', { task_id: taskId });
    assert.equal(logs.logs.length, 1);
    const { log: detail } = await c.call<{ log: Log }>('get_execution_log', { execution_id: logs.logs[0].executionId });
    assert.equal(detail.status, 'error');
    assert.match(detail.error ?? '', /^the agent could not be started: the worktree's setup failed: /);
    assert.equal(detail.logFilePath, failed.logFile);
    assert.match(fs.readFileSync(detail.logFilePath!, 'utf8'), /fetching dependencies[\s\S]*registry unreachable/);
  } finally {
    await c.close();
  }
});

test('a client that exits 0 without ever taking its task (its MCP server failed) is a failed run, saying so', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  try {
    const taskId = await runningTask(c, 'Never reached', 'coder', 'web');
    // What Claude Code and Gemini CLI do when the ledger's server does not start: talk, exit 0.
    const run = runnerOnce(repo, fakes.env({ steps: [{ print: 'I could not find any task tools.' }] }));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fakes.runs().length, 1);
    const logs = await c.call<{ logs: Log[] }>('list_execution_logs', { task_id: taskId });
    const { log } = await c.call<{ log: Log & { exitCode: number | null } }>('get_execution_log', {
      execution_id: logs.logs[0].executionId,
    });
    assert.equal(log.exitCode, 0);
    assert.equal(log.status, 'error');
    assert.match(
      log.error ?? '',
      /^the agent never called get_my_task: its client exited without using the ledger's tools/,
    );
    const task = await c.call<{ task: { status: string } }>('get_task', { task_id: taskId });
    assert.equal(task.task.status, 'in_progress', 'the task waits for the next run');
  } finally {
    await c.close();
  }
});
