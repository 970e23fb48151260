import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { cli, cliJson } from '../helpers/cli';
import { tempDir, tempRepo, writeFiles } from '../helpers/tmp';

describe('agent-ledger workflow / task commands on a store a server is writing', () => {
  let repo: string;
  let server: LedgerClient;
  let workflowId: string;
  let taskId: string;

  before(async () => {
    repo = tempRepo({ 'src/auth/a.ts': 'a\n' });
    server = await connect(repo);
    workflowId = (
      await server.call<{ workflow_id: string }>('start_workflow', {
        name: 'CLI view',
        description: 'seen from the terminal',
        plan: [{ step: '1', goal: 'look' }],
      })
    ).workflow_id;
    taskId = (
      await server.call<{ task_id: string }>('start_task', {
        workflow_id: workflowId,
        name: 'Parent task',
        goal: 'be listed',
        areas: ['auth'],
      })
    ).task_id;
    await server.call('log_decision', {
      task_id: taskId,
      category: 'architecture',
      question: 'Where?',
      chosen: 'src/auth',
      reasoning: 'cohesion',
    });
    await server.call('log_milestone', { task_id: taskId, message: 'Halfway there', progress: 50 });
  });
  after(() => server.close());

  test('workflow list reads what the running server wrote, in text and JSON', () => {
    const text = cli(['workflow', 'list', '--workspace', repo]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`${workflowId}\\s+1\\s+1\\s+\\S+\\s+CLI view`));
    const json = cliJson<{ workflows: { id: string; tasks: number; running: number }[]; total: number }>([
      'workflow',
      'list',
      '--workspace',
      repo,
    ]);
    assert.equal(json.total, 1);
    assert.deepEqual([json.workflows[0].id, json.workflows[0].tasks, json.workflows[0].running], [workflowId, 1, 1]);
  });

  test('workflow show prints the plan and the task tree; --json has the workflow resource shape', async () => {
    const sub = await server.call<{ task_id: string }>('start_task', {
      workflow_id: workflowId,
      parent_task_id: taskId,
      name: 'Child task',
      goal: 'nest',
    });
    const text = cli(['workflow', 'show', workflowId, '--workspace', repo]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Plan\n\s+1\. look/);
    assert.match(
      text.stdout,
      new RegExp(`● ${taskId}  Parent task  50%  Halfway there\\n\\s+● ${sub.task_id}  Child task`),
    );
    const json = cliJson<{ id: string; status: string; tasks: { key: string; parentTaskId: string | null }[] }>([
      'workflow',
      'show',
      workflowId.replace('wf-', ''),
      '--workspace',
      repo,
    ]);
    assert.equal(json.id, workflowId);
    assert.equal(json.status, 'running');
    assert.deepEqual(
      json.tasks.map((t) => [t.key, t.parentTaskId]),
      [
        [taskId, null],
        [sub.task_id, taskId],
      ],
    );
  });

  test('task get shows goal, timeline, files changed and scope after completion', async () => {
    writeFiles(repo, { 'src/auth/a.ts': 'changed\n', 'notes.md': 'outside\n' });
    const child = JSON.parse(
      ((await server.client.readResource({ uri: `task://${taskId}` })).contents[0] as { text: string }).text,
    ).subTasks[0].key;
    await server.call('complete_task', { task_id: child, status: 'success', outcome: { summary: 'nested' } });
    await server.call('complete_task', {
      task_id: taskId,
      status: 'partial_success',
      outcome: { summary: 'Mostly done.', achievements: ['listed'], limitations: ['notes outside'] },
    });
    const text = cli(['task', 'get', taskId, '--workspace', repo]);
    assert.equal(text.code, 0, text.stderr);
    for (const expected of [
      /Goal: be listed/,
      /Areas: auth/,
      /Outcome\n\s+Mostly done\./,
      /\+ listed/,
      /- notes outside/,
      /A notes\.md/,
      /M src\/auth\/a\.ts/,
      /outside declared scope \(auth\): notes\.md/,
      /decision \[architecture\] Where\? → src\/auth — cohesion/,
      /milestone 50% Halfway there/,
      /Timeline \(1 decision, 0 issues, 1 milestone\)/,
    ]) {
      assert.match(text.stdout, expected);
    }
    const shown = cli(['task', 'show', taskId.replace('task-', '#'), '--workspace', repo]);
    assert.equal(shown.stdout, text.stdout, '`show` is an alias of `get`, and every id shape works');
    const json = cliJson<{ key: string; result: string; filesChanged: { added: string[] }; timeline: unknown[] }>([
      'task',
      'get',
      taskId,
      '--workspace',
      repo,
    ]);
    assert.equal(json.key, taskId);
    assert.equal(json.result, 'partial_success');
    assert.deepEqual(json.filesChanged.added, ['notes.md']);
    const resource = JSON.parse(
      ((await server.client.readResource({ uri: `task://${taskId}` })).contents[0] as { text: string }).text,
    );
    // task get (CLI and tool) and the resource both add the task's dependencies from its workflow's plan graph
    // and the cost of its agents' runs.
    const { dependencies, cost } = json as typeof json & {
      dependencies: { graph_id: string | null };
      cost: { runs: number };
    };
    assert.match(
      String(dependencies.graph_id),
      /^wf-\d+$/,
      "a tracked task's dependencies come from its workflow's plan",
    );
    assert.equal(cost.runs, 0, 'no agent run was recorded for it');
    assert.deepEqual(json, resource, 'the CLI and the task:// resource give the same JSON');
  });

  test('task list filters by status and workflow', () => {
    const done = cliJson<{ tasks: { key: string; status: string }[] }>([
      'task',
      'list',
      '--status',
      'done',
      '--workspace',
      repo,
    ]);
    assert.ok(done.tasks.length >= 1 && done.tasks.every((t) => t.status === 'done'));
    const byWorkflow = cliJson<{ tasks: unknown[] }>(['task', 'list', '--workflow', workflowId, '--workspace', repo]);
    assert.equal(byWorkflow.tasks.length, 2);
  });
});

describe('exit codes and errors', () => {
  test('5 for an id that does not exist, with a message that says how to find ids', () => {
    const repo = tempRepo();
    const r = cli(['task', 'get', 'task-42', '--workspace', repo]);
    assert.equal(r.code, 5);
    assert.match(r.stderr, /Task task-42 not found/);
    const w = cli(['workflow', 'show', 'wf-9', '--workspace', repo, '--json']);
    assert.equal(w.code, 5);
    assert.equal(JSON.parse(w.stderr).error.reason, 'NotFound');
  });

  test('2 for bad arguments: unknown command, bad option value, malformed id, missing argument', () => {
    const repo = tempRepo();
    assert.equal(cli(['task', 'frobnicate', '--workspace', repo]).code, 2);
    assert.equal(cli(['task', 'list', '--status', 'finished', '--workspace', repo]).code, 2);
    assert.equal(cli(['task', 'list', '--limit', '-3', '--workspace', repo]).code, 2);
    const malformed = cli(['task', 'get', 'banana', '--workspace', repo]);
    assert.equal(malformed.code, 2);
    assert.match(malformed.stderr, /"banana" is not a task id/);
    assert.equal(cli(['workflow', 'show', '--workspace', repo]).code, 2);
  });

  test('3 for a workspace that is not a folder; read commands create nothing', () => {
    const r = cli(['workflow', 'list', '--workspace', '/nonexistent/place']);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /is not a folder/);
    const empty = tempDir();
    const list = cli(['workflow', 'list'], { cwd: empty });
    assert.equal(list.code, 0);
    assert.match(list.stdout, /No workflows yet/);
    assert.equal(
      fs.existsSync(path.join(empty, '.agent-ledger')),
      false,
      'a read-only command must not create the store',
    );
  });

  test('--help and --version exit 0', () => {
    assert.equal(cli(['--help']).code, 0);
    const v = cli(['--version']);
    assert.equal(v.code, 0);
    assert.match(v.stdout, /^\d+\.\d+\.\d+/);
  });
});
