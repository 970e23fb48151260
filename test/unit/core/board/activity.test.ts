// What `agent-ledger watch` and the web board follow: ledger events turned into a person's items,
// with the titles, agents, file counts and costs the events do not carry, on both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActivityFeed, matchesActivity, parseActivityKinds } from '../../../../src/core/board/activity';
import type { ActivityItem } from '../../../../src/core/board/activity';
import { appendEvent } from '../../../../src/core/events/eventLog';
import type { LedgerEngine } from '../../../../src/core/ports/store';
import { LedgerError } from '../../../../src/core/errors';
import { engineCases } from '../../store/engines/engineKit';

const at = (n: number): string => `2026-11-23T10:00:${String(n).padStart(2, '0')}.000Z`;

async function seed(engine: LedgerEngine): Promise<void> {
  await engine.write(async (tx) => {
    const wf = await tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [
      'Checkout',
      at(0),
      at(0),
    ]);
    const files = JSON.stringify({ added: ['a.ts'], modified: ['b.ts', 'c.ts'], deleted: [], renamed: [] });
    const task = await tx.insert(
      'INSERT INTO tasks (workflow_id, title, status, result, assignee, files_changed, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [wf, 'Add rate limiting', 'done', 'success', 'coder', files, at(1), at(1)],
    );
    await appendEvent(tx, { ts: at(1), kind: 'task.created', taskId: task, payload: { title: 'Add rate limiting' } });
    await appendEvent(tx, { ts: at(2), kind: 'task.updated', taskId: task, payload: { fields: ['assignee'] } });
    // Not a person's event: the log holds it, the feed skips it.
    await appendEvent(tx, { ts: at(2), kind: 'worktree.created', taskId: task, payload: {} });
    await appendEvent(tx, {
      ts: at(3),
      kind: 'task.started',
      workflowId: wf,
      taskId: task,
      payload: { name: 'Add rate limiting', agent: 'coder' },
    });
    const run = await tx.insert(
      "INSERT INTO execution_logs (task_id, agent, status, started_at, cost_usd) VALUES (?, 'coder', 'completed', ?, 0.42)",
      [task, at(4)],
    );
    await appendEvent(tx, {
      ts: at(4),
      kind: 'runner.launched',
      entity: 'execution',
      entityId: String(run),
      payload: { agent: 'coder', client: 'claude' },
    });
    await appendEvent(tx, {
      ts: at(5),
      kind: 'task.completed',
      workflowId: wf,
      taskId: task,
      payload: { status: 'success', manualReviewNeeded: false },
    });
    await appendEvent(tx, {
      ts: at(6),
      kind: 'runner.run_ended',
      entity: 'execution',
      entityId: String(run),
      payload: { agent: 'coder', exitCode: 0, signal: null, limit: null, costUsd: 0.42 },
    });
    await appendEvent(tx, {
      ts: at(7),
      kind: 'handoff.created',
      taskId: task,
      entity: 'handoff',
      entityId: '4',
      payload: { from: 'coder', to: 'reviewer' },
    });
    const pipeline = await tx.insert(
      `INSERT INTO pipelines (workspace, spec_name, title, source_type, effort, flow_template, status, current_phase, rev, created_at, updated_at)
       VALUES ('.specs/20261123-login', 'login', 'Fix the login timeout', 'text', 'M', 'standard', 'awaiting_human', 'checkpoint-a', 3, ?, ?)`,
      [at(8), at(8)],
    );
    await appendEvent(tx, {
      ts: at(8),
      kind: 'pipeline.waiting',
      entity: 'pipeline',
      entityId: String(pipeline),
      payload: { workspace: '.specs/20261123-login', checkpoint: 'checkpoint-a', phase: 'checkpoint-a' },
    });
  });
}

for (const c of engineCases) {
  test(`${c.name}: events become a person's items, with titles, agents, files and cost`, { skip: c.skip }, async () => {
    const ledger = await c.ledger();
    try {
      const engine = await ledger.open();
      await seed(engine);
      const feed = new ActivityFeed(engine);
      const { items, cursor } = await feed.read(0);
      assert.equal(cursor, await feed.lastSeq(), 'the cursor passes every event looked at');
      assert.deepEqual(
        items.map((i) => i.kind),
        [
          'task.queued',
          'task.assigned',
          'task.started',
          'run.launched',
          'task.completed',
          'run.ended',
          'handoff.created',
          'checkpoint.waiting',
        ],
      );
      const byKind = new Map(items.map((i) => [i.kind, i]));
      assert.equal(byKind.get('task.queued')!.title, 'Add rate limiting');
      assert.equal(byKind.get('task.assigned')!.text, 'queued for coder');
      assert.equal(byKind.get('task.completed')!.files, 3);
      assert.match(byKind.get('task.completed')!.text, /success, 3 files changed/);
      const ended = byKind.get('run.ended')!;
      assert.equal(ended.costUsd, 0.42);
      assert.equal(
        ended.task,
        byKind.get('task.started')!.task,
        'a run event finds its task through its execution log',
      );
      assert.match(ended.text, /exit 0, \$0\.42/);
      assert.equal(byKind.get('handoff.created')!.text, 'handoff-4 from coder to reviewer');
      const waiting = byKind.get('checkpoint.waiting')!;
      assert.equal(waiting.title, 'Fix the login timeout');
      assert.equal(waiting.checkpoint, 'checkpoint-a');

      const only = (f: Parameters<typeof matchesActivity>[1]): string[] =>
        items.filter((i) => matchesActivity(i, f)).map((i) => i.kind);
      assert.deepEqual(only({ kinds: ['run'] }), ['run.launched', 'run.ended']);
      assert.deepEqual(only({ kinds: ['task.completed', 'checkpoint'] }), ['task.completed', 'checkpoint.waiting']);
      assert.equal(only({ agent: 'reviewer' }).length, 0);
      assert.equal(only({ taskId: 1 }).length, 7);
      assert.deepEqual(
        (await feed.history(cursor, 2, { kinds: ['task'] })).map((i) => i.kind),
        ['task.started', 'task.completed'],
      );
    } finally {
      await ledger.dispose();
    }
  });

  test(`${c.name}: follow wakes on another process's write, not on a timer`, { skip: c.skip }, async () => {
    const ledger = await c.ledger();
    try {
      const watcher = await ledger.open();
      const writer = await ledger.open();
      const feed = new ActivityFeed(watcher);
      const stop = new AbortController();
      const seen: ActivityItem[] = [];
      const following = (async () => {
        for await (const item of feed.follow(await feed.lastSeq(), { kinds: ['task.queued'] }, stop.signal)) {
          seen.push(item);
          if (seen.length === 2) stop.abort();
        }
      })();
      for (const title of ['one', 'two']) {
        await new Promise((r) => setTimeout(r, 100));
        await writer.write(async (tx) => {
          const id = await tx.insert('INSERT INTO tasks (title, status, created_at, updated_at) VALUES (?, ?, ?, ?)', [
            title,
            'open',
            at(1),
            at(1),
          ]);
          await appendEvent(tx, { ts: at(1), kind: 'task.created', taskId: id, payload: { title } });
        });
      }
      await following;
      assert.deepEqual(
        seen.map((i) => i.title),
        ['one', 'two'],
      );
    } finally {
      await ledger.dispose();
    }
  });
}

test('an unknown --kind is refused with the kinds and families that exist', () => {
  assert.deepEqual(parseActivityKinds(['run', ' task.completed ']), ['run', 'task.completed']);
  assert.throws(
    () => parseActivityKinds(['tasks']),
    (err: unknown) => LedgerError.is(err, 'ValidationError') && /checkpoint/.test((err as Error).message),
  );
});
