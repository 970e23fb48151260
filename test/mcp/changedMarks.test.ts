import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { cliPath, connect } from '../helpers/mcpClient';
import { ledgerEnv } from '../helpers/testLedger';
import { tempRepo } from '../helpers/tmp';
import { until } from '../helpers/processes';
import { connectLooking, marksOf as marks } from '../helpers/stigmergyMarks';
import { fakeAgents } from '../helpers/fakeAgents';
import { PASSKEY, pmWorld, runningTask } from './pmHelpers';

/**
 * `changed:task-N` marks written by the process that watches a running task: the MCP server
 * that answered worker_command, and the runner for the scripted agents it launches (real child
 * processes that change files in their worktree). Marks appear as files change, fade, and
 * vanish when the task ends.
 */

const lookMs = 150;

test('worker_command: the write scope is marked at once, the files the task changes as they change; the marks go with the task', async () => {
  const repo = tempRepo({
    'README.md': '# r\n',
    'src/app.ts': 'export {};\n',
    '.agent-ledger/agents/web.yaml': 'client: claude-code\nscope:\n  write: ["src/**"]\n',
  });
  const c = await connectLooking(repo, lookMs, ['--enable-orchestrator']);
  const reader = await connect(repo, ['--enable-orchestrator']);
  try {
    const task = await c.call<{ id: number }>('task_create', { title: 'Wire the router' });
    const w = await c.call<{ cwd: string }>('worker_command', { taskId: task.id, agent: 'web' });
    const type = `changed:task-${task.id}`;
    assert.deepEqual(
      (await marks(reader, `scope:task-${task.id}`)).map((p) => p.node_id),
      ['src/**'],
      "the agent's write scope, marked when the session starts",
    );
    assert.deepEqual(await marks(reader, type), [], 'nothing changed yet');

    fs.writeFileSync(path.join(w.cwd, 'src/app.ts'), 'export const app = 1;\n');
    const first = await until('the first change marked', async () => {
      const m = await marks(reader, type);
      return m.length > 0 ? m : undefined;
    });
    assert.deepEqual(
      first.map((p) => p.node_id),
      ['src/app.ts'],
    );

    await new Promise((r) => setTimeout(r, 400));
    fs.mkdirSync(path.join(w.cwd, 'src/routes'), { recursive: true });
    fs.writeFileSync(path.join(w.cwd, 'src/routes/home.ts'), 'export {};\n');
    const both = await until('the second change marked', async () => {
      const m = await marks(reader, type);
      return m.length === 2 ? m : undefined;
    });
    assert.deepEqual(
      both.map((p) => p.node_id),
      ['src/app.ts', 'src/routes/home.ts'],
    );
    const [app, home] = both;
    assert.ok(home.updated_at > app.updated_at, 'a file left alone is not marked again');
    assert.ok(app.intensity < home.intensity, `the older mark has faded: ${app.intensity} < ${home.intensity}`);

    // The task ends (cancelled here): its marks go, and nothing marks it again.
    await c.call('task_update', { id: task.id, status: 'cancelled' });
    assert.deepEqual(await marks(reader, type), []);
    fs.writeFileSync(path.join(w.cwd, 'src/late.ts'), 'export {};\n');
    await new Promise((r) => setTimeout(r, lookMs * 4));
    assert.deepEqual(await marks(reader, type), [], 'an ended task is no longer watched');
  } finally {
    await reader.close();
    await c.close();
  }
});

test('the runner marks the files its scripted agent changes while it runs; the marks leave with the task', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  const reader = await connect(repo, ['--enable-orchestrator']);
  try {
    const taskId = await runningTask(c, 'Login page', 'coder', 'web');
    const type = `changed:${taskId}`;
    // A scripted Claude Code: changes one file, works a while, changes another, works, exits.
    const env = fakes.env({
      steps: [
        { write: 'login.js', content: 'one\n' },
        { sleep: 1500 },
        { write: 'style.css', content: 'two\n' },
        { sleep: 1500 },
        { exit: 0 },
      ],
    });
    const runner = spawn(process.execPath, [cliPath, 'runner', '--once', '--json', '--workspace', repo], {
      env: { ...ledgerEnv(repo), ...env, AGENT_LEDGER_CHANGED_MARKS_MS: String(lookMs) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    runner.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    runner.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => runner.on('close', resolve));

    const first = await until('the first file marked while the agent runs', async () => {
      const m = await marks(reader, type);
      return m.length > 0 ? m : undefined;
    });
    assert.equal(first.length, 1);
    assert.match(first[0].node_id, /(^|\/)login\.js$/);
    const both = await until('the second file marked', async () => {
      const m = await marks(reader, type);
      return m.length === 2 ? m : undefined;
    });
    assert.deepEqual(
      both.map((p) => path.basename(p.node_id)),
      ['login.js', 'style.css'],
    );
    assert.equal(await exited, 0, `runner: ${stderr}`);
    const ended = stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { kind?: string });
    assert.ok(
      ended.some((e) => e.kind === 'ended'),
      'the run ended',
    );
    assert.equal((await marks(reader, type)).length, 2, 'the task is still in progress: its marks stay, fading');

    await c.call('update_task_status', { task_id: taskId, status: 'done' });
    assert.deepEqual(await marks(reader, type), [], 'a done task has no marks');
  } finally {
    await reader.close();
    await c.close();
  }
});

test('get_my_task without the runner: the agent’s own MCP server marks the files its run changes', async () => {
  const { repo, c: setup } = await pmWorld();
  await setup.close();
  const c = await connectLooking(repo, lookMs, ['--enable-pm', '--enable-orchestrator']);
  try {
    const taskId = await runningTask(c, 'Login page', 'coder', 'web');
    const { session_token } = await c.call<{ session_token: string }>('authenticate', {
      agent_id: 'coder',
      passkey: PASSKEY,
      project_id: 'web',
    });
    const got = await c.call<{ task: { working_directory: string } }>('get_my_task', { session_token });
    fs.writeFileSync(path.join(got.task.working_directory, 'login.js'), 'login\n');
    const marked = await until('the run’s file marked', async () => {
      const m = await marks(c, `changed:${taskId}`);
      return m.length > 0 ? m : undefined;
    });
    assert.deepEqual(
      marked.map((p) => p.node_id),
      ['packages/web/login.js'],
    );
    await c.call('report_completed', { session_token, result: 'success', summary: 'done' });
    assert.deepEqual(await marks(c, `changed:${taskId}`), [], 'reported done: the marks are gone');
  } finally {
    await c.close();
  }
});
