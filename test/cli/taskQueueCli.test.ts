import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { cli, cliError, cliJson } from '../helpers/cli';
import { connect } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';

/**
 * Queueing a task for an agent in one command, as a person types it: `task create "…" --agent
 * coder` puts it in the agent's project, assigned and in progress, which is what the runner
 * launches (should_start says so); every refusal is coded and changes nothing.
 */

interface Queued {
  task_id: string;
  title: string;
  status: string;
  agent_id: string;
  project_id: string;
  project_name: string;
  working_directory: string;
  client: string;
  model: string | null;
  project_created: boolean;
  agent_added: boolean;
}

/** What any write changes: the number of tasks and projects, and the last event of the log. */
function ledgerState(repo: string): { tasks: number; projects: unknown; lastEvent: number } {
  return {
    tasks: cliJson<{ total: number }>(['task', 'list', '--workspace', repo]).total,
    projects: cliJson<{ projects: unknown[] }>(['project', 'list', '--workspace', repo]).projects,
    lastEvent: cliJson<{ next_seq: number }>([
      'events',
      'subscribe',
      '--wait-ms',
      '0',
      '--limit',
      '500',
      '--workspace',
      repo,
    ]).next_seq,
  };
}

test('task create --agent: in a new repository, the workspace’s project is made, the agent added, the task queued; the runner’s should_start says go', async () => {
  const repo = tempRepo();
  const ws = ['--workspace', repo];
  const text = cli(['task', 'create', 'Fix the parser', '--agent', 'coder', ...ws]);
  assert.equal(text.code, 0, text.stderr);
  const name = path.basename(repo);
  assert.match(
    text.stdout,
    new RegExp(`^created project ${name} \\(prj-1, the whole workspace: ${repo}\\) and added coder to it$`, 'm'),
  );
  assert.match(
    text.stdout,
    new RegExp(`^queued task-1  Fix the parser  for coder in ${name} · claude \\(sonnet\\)$`, 'm'),
  );

  const second = cliJson<Queued>([
    'task',
    'create',
    'Add a test',
    '--agent',
    'coder',
    '--description',
    'cover it',
    ...ws,
  ]);
  assert.deepEqual(second, {
    task_id: 'task-2',
    title: 'Add a test',
    status: 'in_progress',
    agent_id: 'coder',
    project_id: 'prj-1',
    project_name: name,
    working_directory: repo,
    client: 'claude',
    model: 'sonnet',
    project_created: false,
    agent_added: false,
  });
  // The built-in coder on another client: that client's default model, not Claude's "sonnet".
  const codex = cliJson<Queued>(['task', 'create', 'On codex', '--agent', 'coder', '--client', 'codex', ...ws]);
  assert.deepEqual([codex.client, codex.model], ['codex', null]);
  const gemini = cliJson<Queued>([
    'task',
    'create',
    'On gemini',
    '--agent',
    'reviewer',
    '--client',
    'gemini',
    '--model',
    'gemini-2.5-pro',
    ...ws,
  ]);
  assert.deepEqual([gemini.client, gemini.model, gemini.agent_added], ['gemini', 'gemini-2.5-pro', true]);

  const c = await connect(repo, ['--enable-pm']);
  try {
    const task = await c.call<{ task: { status: string; assignee_id: string; project_id: string } }>('get_task', {
      task_id: 'task-1',
    });
    assert.deepEqual(
      [task.task.status, task.task.assignee_id, task.task.project_id],
      ['in_progress', 'coder', 'prj-1'],
    );
    assert.deepEqual(await c.call('should_start', { agent_id: 'coder', project_id: 'prj-1' }), {
      should_start: true,
      ai_type: 'claude',
    });
    assert.deepEqual(
      await c.call('should_start', { agent_id: 'reviewer', project_id: 'prj-1' }),
      { should_start: true, ai_type: 'gemini' },
      'the runner starts the client the task asked for',
    );
  } finally {
    await c.close();
  }
});

test('task create --agent: the agent’s only project; several projects need --project, listed; the refusals are coded and change nothing', () => {
  const repo = tempRepo({ 'README.md': '# r\n', 'packages/web/index.js': 'w\n', 'packages/api/index.js': 'a\n' });
  const ws = ['--workspace', repo];
  cliJson(['project', 'create', 'web', '--dir', 'packages/web', ...ws]);
  cliJson(['project', 'add-agent', 'web', 'coder', ...ws]);
  const only = cliJson<Queued>(['task', 'create', 'Login page', '--agent', 'coder', ...ws]);
  assert.deepEqual(
    [only.project_id, only.working_directory, only.project_created, only.agent_added],
    ['prj-1', path.join(repo, 'packages/web'), false, false],
    'its only project',
  );
  cliJson(['project', 'create', 'api', '--dir', 'packages/api', ...ws]);
  cliJson(['project', 'add-agent', 'api', 'coder', ...ws]);
  cliJson(['project', 'create', 'old', ...ws]);
  cliJson(['project', 'add-agent', 'old', 'coder', ...ws]);
  cliJson(['project', 'archive', 'old', ...ws]);

  const before = ledgerState(repo);
  const refusals: Array<[string[], number, string, RegExp]> = [
    [
      ['task', 'create', 'Endpoint', '--agent', 'coder'],
      2,
      'ValidationError',
      /agent coder is on 2 projects: web \(prj-1, packages\/web\), api \(prj-2, packages\/api\); say which one \(--project web\)/,
    ],
    [
      ['task', 'create', 'Endpoint', '--agent', 'ghost'],
      5,
      'AgentNotFound',
      /Agent "ghost" not found \(defined agents: coder, reviewer/,
    ],
    [
      ['task', 'create', 'Endpoint', '--agent', 'reviewer', '--project', 'web'],
      2,
      'ValidationError',
      /agent reviewer is not on project web \(prj-1\): add it first \(`agent-ledger project add-agent web reviewer`\)/,
    ],
    [['task', 'create', 'Endpoint', '--agent', 'coder', '--project', 'nope'], 5, 'NotFound', /nope/],
    [
      ['task', 'create', 'Endpoint', '--agent', 'coder', '--project', 'old'],
      6,
      'InvalidStatus',
      /project old is archived.*agent-ledger project activate old/,
    ],
    [
      ['task', 'create', 'Login page', '--agent', 'coder', '--project', 'web'],
      6,
      'InvalidStatus',
      /task-1 "Login page" is already queued for coder in web \(in_progress\)/,
    ],
    [
      ['task', 'create', 'Endpoint', '--agent', 'coder', '--project', 'api', '--client', 'cursor'],
      2,
      'ValidationError',
      /client: expected one of "claude" \| "codex" \| "gemini" \(got "cursor"\)/,
    ],
    [
      ['task', 'create', 'Endpoint', '--agent', 'coder', '--assignee', 'bob'],
      2,
      'ValidationError',
      /--agent queues the task for the agent; --assignee goes in a separate task update/,
    ],
    [['task', 'create', 'Endpoint', '--project', 'api'], 2, 'ValidationError', /add --agent <name> to queue it/],
    [['task', 'update', '1', '--agent', 'coder'], 6, 'InvalidStatus', /task-1 is already queued for coder in web/],
    [['task', 'update', '99', '--agent', 'coder'], 5, 'TaskNotFound', /99/],
  ];
  for (const [argv, code, reason, message] of refusals) {
    const r = cli([...argv, ...ws, '--json']);
    assert.equal(r.code, code, `${argv.join(' ')}: ${r.stderr}`);
    const error = cliError(r);
    assert.equal(error.reason, reason, argv.join(' '));
    assert.match(error.message, message, argv.join(' '));
  }
  const twice = cliError(
    cli(['task', 'create', 'Login page', '--agent', 'coder', '--project', 'web', ...ws, '--json']),
  );
  assert.deepEqual(twice.data, { reason: 'alreadyQueued', task_id: 'task-1', status: 'in_progress' });
  const several = cliError(cli(['task', 'create', 'Endpoint', '--agent', 'coder', ...ws, '--json']));
  assert.deepEqual(several.data?.projects, [
    { project_id: 'prj-1', name: 'web' },
    { project_id: 'prj-2', name: 'api' },
  ]);
  assert.deepEqual(ledgerState(repo), before, 'no refusal wrote anything');

  const named = cliJson<Queued>(['task', 'create', 'Endpoint', '--agent', 'coder', '--project', 'api', ...ws]);
  assert.equal(named.project_id, 'prj-2');
});

test('task update <id> --agent queues an existing task; a done or running one is refused', () => {
  const repo = tempRepo();
  const ws = ['--workspace', repo];
  const created = cliJson<{ id: number; status: string }>(['task', 'create', 'Backlog item', ...ws]);
  assert.equal(created.status, 'open');
  const queued = cliJson<Queued>([
    'task',
    'update',
    String(created.id),
    '--agent',
    'coder',
    '--client',
    'codex',
    ...ws,
  ]);
  assert.deepEqual(
    [queued.task_id, queued.status, queued.client, queued.project_created],
    ['task-1', 'in_progress', 'codex', true],
  );
  const listed = cliJson<{ tasks: Array<{ id: number; status: string; assignee: string }> }>(['task', 'list', ...ws]);
  assert.deepEqual(listed.tasks, [
    {
      id: 1,
      title: 'Backlog item',
      status: 'in_progress',
      priority: 'medium',
      type: 'task',
      labels: [],
      assignee: 'coder',
      assigneeType: 'ai',
    },
  ]);
  const other = cli(['task', 'update', '1', '--agent', 'reviewer', ...ws, '--json']);
  assert.equal(other.code, 6);
  assert.match(cliError(other).message, /task-1 is in progress for coder; it can be queued again once it ends/);
  const mixed = cli(['task', 'update', '1', '--agent', 'coder', '--title', 'x', ...ws, '--json']);
  assert.equal(mixed.code, 2);
  assert.match(cliError(mixed).message, /--title goes in a separate task update/);
  cliJson(['task', 'update', '1', '--status', 'cancelled', ...ws]);
  const cancelled = cli(['task', 'update', '1', '--agent', 'coder', ...ws, '--json']);
  assert.equal(cancelled.code, 6);
  assert.match(cliError(cancelled).message, /task-1 is cancelled; create a new task for further work/);
});
