// The Memory Bank and Agents & Sessions views, live: entries written by the CLI and by hand,
// archived through the command; sessions started by worker_command (CLI) and session_start
// (MCP through VS Code, Copilot's path), ended through the command; the Tasks view showing
// seed 002's fields. Other processes write; the views follow without any reload.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { api, extension, folder, invoke, startLedgerServer, treeText, until } from './hostHelpers';

const run = promisify(execFile);

async function cli<T = unknown>(...args: string[]): Promise<T> {
  const cliPath = path.join(extension().extensionPath, 'dist', 'cli.js');
  const { stdout } = await run(process.execPath, [cliPath, ...args, '--workspace', folder(), '--json'], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  return JSON.parse(stdout) as T;
}

const memoryText = async (): Promise<string> => (await (await api()).testing.memoryView()).join('\n');
const agentsText = async (): Promise<string> => (await (await api()).testing.agentsView()).join('\n');
const memoryFile = (rel: string): string => path.join(folder(), '.agent-ledger', 'memory', ...rel.split('/'));

function writeMemory(rel: string, text: string): void {
  mkdirSync(path.dirname(memoryFile(rel)), { recursive: true });
  writeFileSync(memoryFile(rel), text);
}

describe('the Memory Bank view', () => {
  it('shows entries by category: drafts marked, hand-written files read, unreadable ones reported', async () => {
    await cli(
      'memory',
      'add',
      'test-framework',
      '--category',
      'tooling',
      '--title',
      'Test framework',
      '--summary',
      'Vitest: fast',
    );
    await cli(
      'memory',
      'add',
      'commit-format',
      '--category',
      'convention',
      '--title',
      'Commit format',
      '--summary',
      'Conventional Commits',
      '--status',
      'draft',
    );
    writeMemory('rule/tests-required.md', '# Tests required\nEvery bug fix adds a regression test.\n');
    writeMemory('rule/broken.md', '---\nstatus: final\n---\n');
    const expected = [
      'convention — 1 entry · 0 active',
      '  Commit format — draft · Conventional Commits',
      'rule — 1 entry · 1 unreadable',
      '  Tests required',
      '  broken.md — "status" must be one of draft, active, archived (got "final")',
      'tooling — 1 entry',
      '  Test framework — Vitest: fast',
    ].join('\n');
    await until('the entries in the Memory Bank view', async () => (await memoryText()) === expected, 10_000).catch(
      async (err: Error) => {
        throw new Error(`${err.message}\n${await memoryText()}`);
      },
    );
  });

  it('follows a hand edit of an entry file without any reload', async () => {
    writeMemory(
      'tooling/test-framework.md',
      '---\ntitle: Test framework\nsummary: Vitest, with coverage\nstatus: active\n---\n\nChanged by hand.\n',
    );
    const seen = await until(
      'the edited summary',
      async () => (await memoryText()).includes('Test framework — Vitest, with coverage'),
      10_000,
    );
    assert.ok(seen.ms < 10_000);
  });

  it('archives an entry: `status: archived` in its front matter, the rest of the file as written', async () => {
    const result = await vscode.commands.executeCommand<{ status: string; file: string }>(
      'agentLedger.archiveMemoryEntry',
      { folder: folder(), category: 'tooling', id: 'test-framework' },
    );
    assert.deepEqual(result, {
      category: 'tooling',
      id: 'test-framework',
      title: 'Test framework',
      status: 'archived',
      file: '.agent-ledger/memory/tooling/test-framework.md',
    });
    assert.equal(
      readFileSync(memoryFile('tooling/test-framework.md'), 'utf8'),
      '---\ntitle: Test framework\nsummary: Vitest, with coverage\nstatus: archived\n---\n\nChanged by hand.\n',
    );
    await until(
      'the archived entry in the view',
      async () => (await memoryText()).includes('Test framework — archived · Vitest, with coverage'),
      5_000,
    );
    const listed = await cli<{ memories: { id: string; status: string }[] }>('memory', 'list', '--status', 'archived');
    assert.deepEqual(
      listed.memories.map((m) => m.id),
      ['test-framework'],
    );
  });
});

describe('the Agents & Sessions view', () => {
  let taskId = 0;
  let sessionId = 0;
  let branch = '';

  it('shows a task-management task’s priority, type, assignee and labels in the Tasks view', async () => {
    ({ id: taskId } = await cli<{ id: number }>(
      'task',
      'create',
      'Fix the cart total',
      '--priority',
      'high',
      '--type',
      'bug',
      '--assignee',
      'coder',
      '--assignee-type',
      'ai',
      '--labels',
      'cart, ui',
    ));
    await until(
      'the task with its fields',
      async () =>
        (await treeText()).includes(`Fix the cart total — open · task-${taskId} · high · bug · @coder · cart, ui`),
      5_000,
    );
  });

  it('shows a session worker_command started through the CLI, with its branch, within seconds', async () => {
    const started = Date.now();
    await run(
      process.execPath,
      [
        path.join(extension().extensionPath, 'dist', 'cli.js'),
        'worker',
        'command',
        String(taskId),
        '--workspace',
        folder(),
      ],
      { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } },
    );
    const sessions = await cli<{ sessions: { id: number; branch: string }[] }>(
      'session',
      'list',
      '--task',
      String(taskId),
    );
    ({ id: sessionId, branch } = sessions.sessions[0]);
    assert.equal(branch, `task-${taskId}-s${sessionId}`);
    await until(
      'the running session under coder',
      async () =>
        new RegExp(`^ {2}Fix the cart total — task-${taskId} · running · ${branch} · since \\d\\d:\\d\\d$`, 'm').test(
          await agentsText(),
        ),
      5_000,
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await agentsText()}`);
    });
    assert.match(await agentsText(), /^coder — claude-code · sonnet · 1 running · 1 session$/m);
    assert.ok(Date.now() - started < 15_000);
  });

  it('shows a session started over MCP through VS Code (session_start, Copilot’s path)', async function () {
    this.timeout(90_000);
    await startLedgerServer();
    const started = await invoke<{ sessionId: number; agent: string }>('session_start', { taskId, agent: 'reviewer' });
    assert.equal(started.agent, 'reviewer');
    await until(
      'the reviewer’s session',
      async () =>
        /^reviewer — claude-code · haiku · 1 running · 1 session\n {2}Fix the cart total — task-\d+ · running · since/m.test(
          await agentsText(),
        ),
      5_000,
    );
  });

  it('ends a session through its command; the view and the CLI agree', async () => {
    const ended = await vscode.commands.executeCommand<{ status: string; exitCode: number; dodResult: string }>(
      'agentLedger.endSession',
      { folder: folder(), sessionId, exitCode: 0, dodResult: 'pending' },
    );
    assert.deepEqual([ended.status, ended.exitCode, ended.dodResult], ['completed', 0, 'pending']);
    await until(
      'the ended session',
      async () =>
        new RegExp(
          `Fix the cart total — task-${taskId} · completed · exit 0 · pending · ${branch} · ended \\d\\d:\\d\\d`,
        ).test(await agentsText()),
      5_000,
    );
    const listed = await cli<{ sessions: { id: number; status: string; dodResult: string }[] }>(
      'session',
      'list',
      '--agent',
      'coder',
    );
    assert.deepEqual(
      listed.sessions.map((s) => [s.id, s.status, s.dodResult]),
      [[sessionId, 'completed', 'pending']],
    );
    // A second end is refused with the domain's words, shown as a warning, not thrown at the caller.
    assert.equal(
      await vscode.commands.executeCommand('agentLedger.endSession', { folder: folder(), sessionId, exitCode: 0 }),
      undefined,
    );
  });

  it('refuses an exit code the schema refuses, with session_end’s message', async () => {
    const running = await cli<{ sessions: { id: number }[] }>(
      'session',
      'list',
      '--agent',
      'reviewer',
      '--status',
      'running',
    );
    const refused = await vscode.commands.executeCommand('agentLedger.endSession', {
      folder: folder(),
      sessionId: running.sessions[0].id,
      exitCode: 1.5,
      dodResult: null,
    });
    assert.equal(refused, undefined);
    const still = await cli<{ sessions: { status: string }[] }>('session', 'list', '--agent', 'reviewer');
    assert.equal(still.sessions[0].status, 'running');
  });
});
