import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { cli, cliError, cliJson } from '../helpers/cli';
import { tempDir, tempRepo, writeFiles } from '../helpers/tmp';
import { stubClients } from '../helpers/stubClients';

/** Fields that differ between two creations by nature (id, times); the rest must match. */
function withoutIdentity<T extends Record<string, unknown>>(v: T): Partial<T> {
  const { id: _id, key: _key, createdAt: _c, updatedAt: _u, ...rest } = v;
  return rest as Partial<T>;
}

describe('agent-ledger task|agent|worker|session|memory: one command per tool, same results as MCP', () => {
  let repo: string;
  let c: LedgerClient;
  const run = (...args: string[]) => cli([...args, '--workspace', repo]);
  const json = <T = Record<string, unknown>>(...args: string[]) => cliJson<T>([...args, '--workspace', repo]);

  before(async () => {
    repo = tempRepo({ 'src/a.ts': 'a\n' });
    c = await connect(repo);
  });
  after(() => c.close());

  test('read-only commands before first use: the default agents, and nothing written', async () => {
    const fresh = tempRepo();
    const listed = cliJson<{ agents: { name: string; file: string }[] }>(['agent', 'list', '--workspace', fresh]);
    assert.ok(!fs.existsSync(path.join(fresh, '.agent-ledger')), 'a read command creates nothing');
    const server = await connect(fresh);
    try {
      assert.deepEqual(listed, await server.call('agent_list'));
    } finally {
      await server.close();
    }
  });

  test('task commands and task tools create, list, get and update the same tasks', async () => {
    const viaCli = json<Record<string, unknown>>(
      'task',
      'create',
      'Same task',
      '--description',
      'd',
      '--priority',
      'high',
      '--type',
      'bug',
      '--assignee',
      'coder',
      '--assignee-type',
      'ai',
      '--labels',
      'a, b',
    );
    const viaMcp = await c.call<Record<string, unknown>>('task_create', {
      title: 'Same task',
      description: 'd',
      priority: 'high',
      type: 'bug',
      assignee: 'coder',
      assigneeType: 'ai',
      labels: 'a, b',
    });
    assert.deepEqual(withoutIdentity(viaCli), withoutIdentity(viaMcp));
    assert.deepEqual(json('task', 'get', String(viaCli.id)), await c.call('task_get', { id: viaCli.id }));
    assert.deepEqual(
      json('task', 'list', '--status', 'open', '--limit', '1'),
      await c.call('task_list', { status: 'open', limit: 1 }),
    );
    assert.deepEqual(
      json('task', 'list', '--assignee', 'coder', '--offset', '1'),
      await c.call('task_list', { assignee: 'coder', offset: 1 }),
    );
    const updated = json<Record<string, unknown>>(
      'task',
      'update',
      `task-${viaMcp.id}`,
      '--title',
      'Renamed',
      '--labels',
      '',
      '--priority',
      'low',
    );
    assert.deepEqual([updated.title, updated.labels, updated.priority], ['Renamed', [], 'low']);
    const {
      counts: _counts,
      subTasks: _subTasks,
      timeline: _timeline,
      dependencies: _dependencies,
      cost: _cost,
      completionReview: _review,
      contexts: _contexts,
      landing: _landing,
      alsoChangedBy: _alsoChangedBy,
      ...stored
    } = await c.call<Record<string, unknown>>('task_get', { id: viaMcp.id });
    assert.deepEqual(
      updated,
      stored,
      'task_update answers with the task as task_get shows it (without the timeline, dependencies, cost, review, contexts, landing and shared files)',
    );
    const text = run('task', 'list');
    assert.equal(text.code, 0);
    assert.match(text.stdout, new RegExp(`task-${viaMcp.id}\\s+open\\s+low\\s+bug\\s+coder\\s+Renamed`));
  });

  test('agents, sessions and the Memory Bank read the same through both faces', async () => {
    const id = (await c.call<{ id: number }>('task_create', { title: 'sessions' })).id;
    const started = json<{ sessionId: number; replayed: boolean; taskId: number }>(
      'session',
      'start',
      String(id),
      '--agent',
      'coder',
      '--group',
      'g1',
      '--idempotency-key',
      'k1',
    );
    assert.equal(started.replayed, false);
    const replay = await c.call<{ sessionId: number; replayed: boolean }>('session_start', {
      taskId: id,
      agent: 'coder',
      sessionGroupId: 'g1',
      idempotencyKey: 'k1',
    });
    assert.deepEqual(
      [replay.sessionId, replay.replayed],
      [started.sessionId, true],
      'one idempotency key across CLI and MCP',
    );
    assert.deepEqual(json('session', 'list', '--task', String(id)), await c.call('session_list', { taskId: id }));
    const ended = json<{ status: string; artifacts: string[]; dodResult: string; taskStatus: string }>(
      'session',
      'end',
      String(started.sessionId),
      '--exit-code',
      '0',
      '--dod-result',
      'merged',
      '--artifact',
      'src/a.ts',
      '--artifact',
      'src/b.ts',
    );
    assert.deepEqual(
      [ended.status, ended.artifacts, ended.dodResult, ended.taskStatus],
      ['completed', ['src/a.ts', 'src/b.ts'], 'merged', 'done'],
    );
    assert.deepEqual(
      json('session', 'list', '--status', 'completed'),
      await c.call('session_list', { status: 'completed' }),
    );

    assert.deepEqual(json('agent', 'list'), await c.call('agent_list'));
    assert.deepEqual(json('agent', 'show', 'reviewer'), await c.call('agent_get', { name: 'reviewer' }));
    const yaml = run('agent', 'get', 'coder');
    assert.match(yaml.stdout, /^# \.agent-ledger\/agents\/coder\.yaml\nname: coder\n/);

    const added = json(
      'memory',
      'add',
      'linter',
      '--category',
      'tooling',
      '--title',
      'Linter',
      '--summary',
      'ESLint + Biome',
      '--content',
      '# Linter\n',
    );
    assert.deepEqual((await c.call<{ memories: unknown[] }>('memory_list')).memories, [added]);
    writeFiles(repo, { 'body.md': 'From a file.\n' });
    json(
      'memory',
      'add',
      'db',
      '--category',
      'architecture',
      '--title',
      'DB',
      '--status',
      'draft',
      '--content-file',
      path.join(repo, 'body.md'),
    );
    assert.match(fs.readFileSync(path.join(repo, '.agent-ledger/memory/architecture/db.md'), 'utf8'), /From a file\./);
    assert.deepEqual(json('memory', 'list', '--status', 'draft'), await c.call('memory_list', { status: 'draft' }));
    assert.deepEqual(
      json('memory', 'preview', '--max-chars', '300'),
      await c.call('memory_preview', { maxChars: 300 }),
    );
    assert.equal(run('memory', 'preview').stdout.trim(), (await c.call<{ context: string }>('memory_preview')).context);
  });

  test('worker command prints only the launch command, ready for eval; cleanup reports the same', async () => {
    const stubs = stubClients();
    const id = (await c.call<{ id: number }>('task_create', { title: "Ship it; $(touch nope) 'now'" })).id;
    const r = run('worker', 'command', String(id), '--client', 'codex', '--auto');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /session \d+ · coder \(codex\) · \.agent-ledger\/worktrees\/task-\d+ on task-\d+-s\d+/);
    const launched = stubs.run(r.stdout.trim(), repo);
    assert.equal(launched.client, 'codex');
    assert.deepEqual(launched.argv.slice(0, 3), ['exec', '--model=sonnet', '--full-auto']);
    assert.match(launched.argv.at(-1)!, /## Task #\d+: Ship it; \$\(touch nope\) 'now'/);
    assert.ok(!fs.existsSync(path.join(repo, 'nope')));
    const viaMcp = await c.call<{ worktree: string; reused: boolean }>('worker_command', {
      taskId: id,
      agent: 'reviewer',
    });
    assert.equal(viaMcp.reused, true);
    assert.deepEqual(
      json('worker', 'cleanup', '--dry-run', '--older-than-days', '0'),
      await c.call('worktree_cleanup', { dryRun: true, olderThanDays: 0 }),
    );
    const text = run('worker', 'cleanup', '--task', String(id), '--dry-run');
    assert.match(text.stdout, /kept \.agent-ledger\/worktrees\/task-\d+ \(sessions \d+, \d+ are still running there/);
  });

  test('the same refusals with the same messages, as seed 002 exit codes', async () => {
    const id = (await c.call<{ id: number }>('task_create', { title: 'refusals' })).id;
    await c.call('session_start', { taskId: id, agent: 'coder' });
    writeFiles(repo, { '.agent-ledger/agents/broken.yaml': 'client: cursor\n' });
    const cases: [string[], string, Record<string, unknown>, number][] = [
      [['task', 'create', 'x', '--priority', 'urgent'], 'task_create', { title: 'x', priority: 'urgent' }, 2],
      [['task', 'create', '  '], 'task_create', { title: '  ' }, 2],
      [['task', 'list', '--limit', 'abc'], 'task_list', { limit: 'abc' }, 2],
      [['session', 'list', '--status', 'paused'], 'session_list', { status: 'paused' }, 2],
      [
        ['session', 'end', '1', '--exit-code', '0', '--artifact', '../x'],
        'session_end',
        { sessionId: 1, exitCode: 0, artifacts: ['../x'] },
        2,
      ],
      [
        ['memory', 'add', '../x', '--category', 'c', '--title', 't'],
        'memory_add',
        { id: '../x', category: 'c', title: 't' },
        2,
      ],
      [['task', 'get', '999'], 'task_get', { id: 999 }, 5],
      [['task', 'get', 'banana'], 'task_get', { id: 'banana' }, 2],
      [['session', 'end', '999', '--exit-code', '0'], 'session_end', { sessionId: 999, exitCode: 0 }, 5],
      [['session', 'start', String(id), '--agent', 'ghost'], 'session_start', { taskId: id, agent: 'ghost' }, 5],
      [['session', 'start', String(id), '--agent', 'coder'], 'session_start', { taskId: id, agent: 'coder' }, 6],
      [['task', 'update', String(id), '--status', 'open'], 'task_update', { id, status: 'open' }, 6],
      [['agent', 'get', 'broken'], 'agent_get', { name: 'broken' }, 3],
    ];
    for (const [args, tool, input, exitCode] of cases) {
      const r = run(...args, '--json');
      assert.equal(r.code, exitCode, `${args.join(' ')}: ${r.stderr}`);
      assert.deepEqual(cliError(r), await c.fail(tool, input), args.join(' '));
    }
    const plain = tempDir('agent-ledger-plain-');
    const t = cliJson<{ id: number }>(['task', 'create', 'no git', '--workspace', plain]);
    const git = cli(['worker', 'command', String(t.id), '--workspace', plain, '--json']);
    assert.equal(git.code, 5);
    assert.equal(cliError(git).code, -32008);
    const textError = run('task', 'get', '999');
    assert.equal(
      textError.stderr,
      'error: Task task-999 not found (list tasks with task_list or `agent-ledger task list`)\n',
    );
  });
});
