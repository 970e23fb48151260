import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { git, tempRepo } from '../helpers/tmp';

interface Started {
  sessionId: number;
  startedAt: string;
  taskId: number;
  agent: string;
  replayed: boolean;
}

interface SessionJson {
  id: number;
  taskId: number;
  agent: string;
  status: string;
  exitCode: number | null;
  signal: string | null;
  dodResult: string | null;
  artifacts: string[];
  error: { type: string; message?: string } | null;
  endedAt: string | null;
  taskStatus?: string;
}

describe('sessions (seed 002)', () => {
  let repo: string;
  let c: LedgerClient;
  before(async () => {
    repo = tempRepo({ 'src/a.ts': 'a\n' });
    c = await connect(repo);
  });
  after(() => c.close());

  const task = async (title = 'work') => (await c.call<{ id: number }>('task_create', { title })).id;
  const status = async (id: number) =>
    (await c.call<{ status: string; result: string | null }>('task_get', { id })).status;

  test('the first session starts the task: in_progress with a pinned snapshot of the workspace', async () => {
    const id = await task();
    const s = await c.call<Started>('session_start', { taskId: id, agent: 'coder', sessionGroupId: 'run-1' });
    assert.equal(s.replayed, false);
    assert.ok(!Number.isNaN(Date.parse(s.startedAt)));
    const t = await c.call<{
      status: string;
      selectedSessionId: number;
      snapshot: { id: string };
      worktree: string | null;
    }>('task_get', { id });
    assert.equal(t.status, 'in_progress');
    assert.equal(t.selectedSessionId, s.sessionId);
    assert.equal(t.worktree, null, 'an external worker is measured in the workspace');
    assert.equal(git(repo, 'rev-parse', `refs/agent-ledger/snapshots/task-${id}`).trim(), t.snapshot.id);
    const listed = await c.call<{ sessions: { sessionGroupId: string; origin: string }[] }>('session_list', {
      taskId: id,
    });
    assert.deepEqual(
      listed.sessions.map((x) => [x.sessionGroupId, x.origin]),
      [['run-1', 'session_start']],
    );
  });

  test('one running session per task and agent, unless asked; other agents are free', async () => {
    const id = await task();
    const first = await c.call<Started>('session_start', { taskId: id, agent: 'coder' });
    const refused = await c.fail('session_start', { taskId: id, agent: 'coder' });
    assert.deepEqual([refused.code, refused.reason], [-32005, 'SessionAlreadyRunning']);
    assert.deepEqual(refused.data, { sessionId: first.sessionId, taskId: id, agent: 'coder' });
    await c.call('session_start', { taskId: id, agent: 'reviewer' });
    await c.call('session_start', { taskId: id, agent: 'coder', allowConcurrent: true });
    await c.call('session_end', { sessionId: first.sessionId, exitCode: 0 });
    assert.equal((await c.call<{ total: number }>('session_list', { taskId: id, status: 'running' })).total, 2);
  });

  test('an idempotencyKey returns the first session instead of starting another', async () => {
    const id = await task();
    const a = await c.call<Started>('session_start', { taskId: id, agent: 'coder', idempotencyKey: 'orchestrator-7' });
    const b = await c.call<Started>('session_start', {
      taskId: `task-${id}`,
      agent: 'coder',
      idempotencyKey: 'orchestrator-7',
    });
    assert.equal(b.sessionId, a.sessionId);
    assert.equal(b.replayed, true);
    assert.equal(b.startedAt, a.startedAt);
    await c.call('session_end', { sessionId: a.sessionId, exitCode: 0 });
    assert.equal(
      (await c.call<Started>('session_start', { taskId: id, agent: 'coder', idempotencyKey: 'orchestrator-7' }))
        .sessionId,
      a.sessionId,
      'even after it ended',
    );
    const misuse = await c.fail('session_start', {
      taskId: await task(),
      agent: 'coder',
      idempotencyKey: 'orchestrator-7',
    });
    assert.equal(misuse.code, -32007);
    assert.match(misuse.message, /already used by session/);
  });

  test('session_end records the outcome; the last session settles the task', async () => {
    const merged = await task('merged');
    const s1 = await c.call<Started>('session_start', { taskId: merged, agent: 'coder' });
    const helper = await c.call<Started>('session_start', { taskId: merged, agent: 'reviewer' });
    const ended = await c.call<SessionJson>('session_end', {
      sessionId: s1.sessionId,
      exitCode: 0,
      dodResult: 'merged',
      artifacts: ['src/a.ts', './src/b.ts'],
    });
    assert.equal(ended.status, 'completed');
    assert.deepEqual(ended.artifacts, ['src/a.ts', 'src/b.ts']);
    assert.equal(ended.taskStatus, undefined, 'another session still runs');
    assert.equal(await status(merged), 'in_progress');
    const last = await c.call<SessionJson>('session_end', {
      sessionId: helper.sessionId,
      exitCode: 0,
      dodResult: 'merged',
    });
    assert.equal(last.taskStatus, 'done');
    assert.equal(await status(merged), 'done');
    assert.equal(
      (await c.fail('session_start', { taskId: merged, agent: 'coder' })).code,
      -32004,
      'a done task takes no new session',
    );

    const crashed = await task('crashed');
    const s2 = await c.call<Started>('session_start', { taskId: crashed, agent: 'coder' });
    const failed = await c.call<SessionJson>('session_end', {
      sessionId: s2.sessionId,
      exitCode: 137,
      signal: 'SIGKILL',
      error: { type: 'signal', message: 'killed' },
    });
    assert.deepEqual(
      [failed.status, failed.signal, failed.error?.type, failed.taskStatus],
      ['failed', 'SIGKILL', 'signal', 'failed'],
    );
    const retry = await c.call<Started>('session_start', { taskId: crashed, agent: 'coder' });
    assert.equal(await status(crashed), 'in_progress', 'a failed task can be retried');

    const pending = await c.call<SessionJson>('session_end', {
      sessionId: retry.sessionId,
      exitCode: 0,
      dodResult: 'pending',
    });
    assert.equal(pending.status, 'completed');
    assert.equal(await status(crashed), 'in_progress', 'pending: the Definition of Done is not decided yet');

    const again = await c.fail('session_end', { sessionId: retry.sessionId, exitCode: 0 });
    assert.deepEqual([again.code, again.reason], [-32004, 'InvalidStatus']);
  });

  test('session_list filters by task, status and agent, and pages', async () => {
    const id = await task();
    for (const agent of ['coder', 'reviewer']) await c.call('session_start', { taskId: id, agent });
    const reviewer = await c.call<{ sessions: SessionJson[] }>('session_list', { taskId: id, agent: 'reviewer' });
    assert.deepEqual(
      reviewer.sessions.map((s) => s.agent),
      ['reviewer'],
    );
    const page = await c.call<{ sessions: SessionJson[]; total: number; nextOffset: number | null }>('session_list', {
      limit: 1,
    });
    assert.equal(page.sessions.length, 1);
    assert.equal(page.nextOffset, 1);
    assert.ok(page.total > 5);
    const failed = await c.call<{ sessions: SessionJson[] }>('session_list', { status: 'failed' });
    assert.ok(failed.sessions.every((s) => s.status === 'failed'));
  });

  test('refusals: unknown session -32003, unknown agent -32002, unknown task -32001, bad input -32007', async () => {
    const unknown = await c.fail('session_end', { sessionId: 999, exitCode: 0 });
    assert.deepEqual([unknown.code, unknown.reason], [-32003, 'SessionNotFound']);
    assert.equal((await c.fail('session_end', { sessionId: 'session-999', exitCode: 0 })).code, -32003);
    const agent = await c.fail('session_start', { taskId: await task(), agent: 'nobody' });
    assert.deepEqual([agent.code, agent.reason], [-32002, 'AgentNotFound']);
    assert.match(agent.message, /defined agents: coder, reviewer/);
    assert.equal((await c.fail('session_start', { taskId: 424242, agent: 'coder' })).code, -32001);
    const outside = await c.fail('session_end', { sessionId: 1, exitCode: 0, artifacts: ['../../etc/passwd'] });
    assert.equal(outside.code, -32007);
    assert.match(outside.message, /artifacts\.0: must be a path relative to the worktree/);
    assert.match(
      (await c.fail('session_end', { sessionId: 1, exitCode: 0, dodResult: 'shipped' })).message,
      /dodResult: expected one of "pending" \| "merged" \| "timeout" \| "error"/,
    );
    assert.match((await c.fail('session_end', { sessionId: 1 })).message, /exitCode: is required/);
  });
});

describe('two clients at once lose nothing', () => {
  test('tasks and sessions created concurrently by two server processes are all there, once', async () => {
    const repo = tempRepo();
    const [a, b] = await Promise.all([connect(repo), connect(repo)]);
    try {
      const n = 20;
      const createMany = (c: LedgerClient, who: string) =>
        Promise.all(
          Array.from({ length: n }, (_, i) =>
            c.call<{ id: number; title: string }>('task_create', { title: `${who}-${i}` }),
          ),
        );
      const [fromA, fromB] = await Promise.all([createMany(a, 'a'), createMany(b, 'b')]);
      const ids = [...fromA, ...fromB].map((t) => t.id);
      assert.equal(new Set(ids).size, 2 * n, 'no id given twice');
      const listed = await a.call<{ tasks: { id: number; title: string }[]; total: number }>('task_list', {
        limit: 500,
      });
      assert.equal(listed.total, 2 * n);
      assert.deepEqual(listed.tasks.map((t) => t.title).sort(), [...fromA, ...fromB].map((t) => t.title).sort());

      // Each client starts a session on every task of the other: 40 sessions, none lost.
      const started = await Promise.all([
        ...fromB.map((t) => a.call<Started>('session_start', { taskId: t.id, agent: 'coder' })),
        ...fromA.map((t) => b.call<Started>('session_start', { taskId: t.id, agent: 'coder' })),
      ]);
      assert.equal(new Set(started.map((s) => s.sessionId)).size, 2 * n);
      assert.equal((await b.call<{ total: number }>('session_list', { status: 'running' })).total, 2 * n);

      // Racing for the same task and agent: exactly one wins, the other is told who did.
      const contested = fromA[0].id;
      await a.call('session_end', { sessionId: started.find((s) => s.taskId === contested)!.sessionId, exitCode: 0 });
      const race = await Promise.allSettled([
        a.call<Started>('session_start', { taskId: contested, agent: 'coder' }),
        b.call<Started>('session_start', { taskId: contested, agent: 'coder' }),
      ]);
      assert.equal(race.filter((r) => r.status === 'fulfilled').length, 1);
      assert.match(
        String((race.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason),
        /SessionAlreadyRunning/,
      );

      // Racing with one idempotency key: one session, the other call replays it.
      const keyed = fromA[1].id;
      const [k1, k2] = await Promise.all([
        a.call<Started>('session_start', { taskId: keyed, agent: 'reviewer', idempotencyKey: 'same' }),
        b.call<Started>('session_start', { taskId: keyed, agent: 'reviewer', idempotencyKey: 'same' }),
      ]);
      assert.equal(k1.sessionId, k2.sessionId);
      assert.deepEqual([k1.replayed, k2.replayed].sort(), [false, true]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
