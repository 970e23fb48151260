// task_get's whole answer in one read (`readTaskAnswer`): the same JSON, on both engines, as the
// three reads it replaced (the task with its timeline, its dependencies, its cost), and on
// PostgreSQL a handful of round trips instead of one per statement plus BEGIN and COMMIT per read
// — counted on the wire by a TCP proxy in front of the real server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import type { LedgerEngine } from '../../../../src/core/ports/store';
import { LedgerError } from '../../../../src/core/errors';
import { systemClock } from '../../../../src/core/time';
import { TaskService } from '../../../../src/core/tasks/taskService';
import { TaskTreeQueries } from '../../../../src/core/tasks/taskTree';
import { insertDecision, insertIssue, insertMilestone } from '../../../../src/core/tasks/timelineRepo';
import { dependenciesOf } from '../../../../src/core/tasks/taskDependencies';
import { CostRollupService } from '../../../../src/core/costs/costRollup';
import { HandoffService, insertContext } from '../../../../src/core/runtime/pm/handoffService';
import type { AgentDirectory } from '../../../../src/core/runtime/pm/projectRows';
import { recordedSharedFiles } from '../../../../src/core/tasks/taskFiles';
import { getTask } from '../../../../src/core/tasks/taskRepo';
import { openEngine } from '../../../../src/store/openEngine';
import { engineCases } from '../../store/engines/engineKit';
import { createTestDatabase, pgEnv, pgSkip } from '../../../helpers/postgres';

const at = (n: number): string => `2026-11-23T10:00:${String(n).padStart(2, '0')}.000Z`;

/** A workflow with a parent task (two sub-tasks, a timeline, runs by two agents), and a task outside any workflow. */
async function world(engine: LedgerEngine): Promise<{ parent: number; child: number; loose: number }> {
  return engine.write(async (tx) => {
    const wf = await tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [
      'Checkout',
      at(0),
      at(0),
    ]);
    const task = (
      title: string,
      workflowId: number | null,
      parentId: number | null,
      status = 'open',
    ): Promise<number> =>
      tx.insert(
        'INSERT INTO tasks (workflow_id, parent_id, title, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
        [workflowId, parentId, title, status, at(0), at(0)],
      );
    const parent = await task('Parent', wf, null, 'in_progress');
    const child = await task('Child', wf, parent, 'done');
    // The child's completion asked for a person, who approved it: task_get says so.
    await tx.run('UPDATE tasks SET completed_at = ?, outcome = ? WHERE id = ?', [
      at(4),
      JSON.stringify({ summary: 's', manual_review_needed: true }),
      child,
    ]);
    await tx.insert(
      'INSERT INTO task_reviews (task_id, verdict, note, issue_through, completed_at, reviewed_by, reviewed_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [child, 'approved', 'ok', 0, at(4), 'ana', at(5)],
    );
    await task('Second child', wf, parent);
    const loose = await task('Loose', null, null);
    await insertDecision(tx, {
      taskId: parent,
      category: 'architecture',
      question: 'Which store?',
      options: ['a', 'b'],
      chosen: 'a',
      reasoning: 'simpler',
      tradeOffs: null,
      createdAt: at(3),
    });
    await insertIssue(tx, {
      taskId: parent,
      type: 'bug_encountered',
      description: 'flaky',
      resolution: '',
      requiresHumanReview: true,
      createdAt: at(1),
    });
    await insertMilestone(tx, {
      taskId: parent,
      message: 'half way',
      progress: 50,
      metadata: { step: 2 },
      createdAt: at(2),
    });
    for (const [i, [taskId, agent, cost]] of (
      [
        [parent, 'coder', 0.04],
        [parent, 'reviewer', 0.01],
        [child, 'coder', 0.1],
      ] as const
    ).entries()) {
      await tx.insert(
        'INSERT INTO execution_logs (task_id, agent, status, started_at, completed_at, duration_ms, input_tokens, output_tokens, cost_usd) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [taskId, agent, 'completed', at(i), at(i + 1), 1000, 100, 10, cost],
      );
    }
    // Seven contexts saved on the parent (task_get shows the newest five), by two agents.
    for (let i = 0; i < 7; i++)
      await insertContext(
        tx,
        { id: parent, workflow_id: wf },
        i % 2 ? 'reviewer' : 'coder',
        { progress: `step ${i}`, findings: i === 3 ? 'the cache is cold' : null, next_steps: `step ${i + 1}` },
        at(10 + i),
      );
    // A person landed the child's branch (`task land` records it as an event).
    await tx.insert(
      'INSERT INTO events (ts, kind, task_id, entity, entity_id, payload) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq',
      [
        at(6),
        'task.landed',
        child,
        'task',
        `task-${child}`,
        JSON.stringify({
          onto: 'main',
          branch: 'task-2-s1',
          method: 'merge',
          by: 'ana',
          to: 'abc123',
          pullRequest: null,
        }),
      ],
    );
    return { parent, child, loose };
  });
}

/** What task_get answered before: three reads, one per part (and the person's review of its completion, from the Tasks tree's read). */
async function threeReads(engine: LedgerEngine, id: number): Promise<unknown> {
  const task = await new TaskService(engine, systemClock).get(id);
  return {
    ...task,
    dependencies: await engine.read((db) => dependenciesOf(db, id)),
    cost: await new CostRollupService(engine).ofTask(id),
    completionReview: await reviewOf(engine, id),
    alsoChangedBy: await engine.read(async (db) => {
      const row = (await getTask(db, id))!;
      return recordedSharedFiles(db, { ...row, files: row.filesChanged });
    }),
    contexts: await contextsOf(engine, id),
    landing: await landingOf(engine, id),
  };
}

/** The contexts as get_task_context's whole history gives them, newest five first. */
async function contextsOf(engine: LedgerEngine, id: number): Promise<unknown> {
  const agents = { current: () => ({ agents: [], errors: [] }), lookup: () => undefined } as unknown as AgentDirectory;
  const { history = [] } = await new HandoffService(engine, agents).taskContext(id, true);
  return {
    total: history.length,
    newest: history
      .reverse()
      .slice(0, 5)
      .map((c) => ({
        agent: c.agent_id,
        progress: c.progress,
        findings: c.findings,
        blockers: c.blockers,
        nextSteps: c.next_steps,
        savedAt: c.created_at,
      })),
  };
}

/** How the task was landed, read on its own. */
async function landingOf(engine: LedgerEngine, id: number): Promise<unknown> {
  const row = await engine.read((db) =>
    db.get<{ ts: string; payload: string }>(
      "SELECT ts, payload FROM events WHERE task_id = ? AND kind = 'task.landed'",
      [id],
    ),
  );
  if (!row) return null;
  const p = JSON.parse(row.payload) as Record<string, string | null>;
  return {
    onto: p.onto,
    branch: p.branch,
    method: p.method,
    by: p.by,
    at: row.ts,
    commit: p.to,
    pullRequest: p.pullRequest,
  };
}

/** The review recorded for the task's current completion, read on its own. */
async function reviewOf(engine: LedgerEngine, id: number): Promise<unknown> {
  return engine.read(async (db) => {
    const task = await db.get<{ completed_at: string | null }>('SELECT completed_at FROM tasks WHERE id = ?', [id]);
    const r = await db.get<{ verdict: string; note: string | null; reviewed_by: string; reviewed_at: string }>(
      'SELECT verdict, note, reviewed_by, reviewed_at FROM task_reviews WHERE task_id = ? AND completed_at = ? ORDER BY id DESC LIMIT 1',
      [id, task?.completed_at ?? null],
    );
    return r ? { verdict: r.verdict, note: r.note, reviewedBy: r.reviewed_by, reviewedAt: r.reviewed_at } : null;
  });
}

for (const engineCase of engineCases) {
  test(
    `task_get's answer in one read on ${engineCase.name}: the same JSON as its three reads, and TaskNotFound for an unknown task`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const ids = await world(engine);
        const tasks = new TaskService(engine, systemClock);
        for (const id of Object.values(ids)) {
          const answer = await tasks.answer(id);
          assert.deepEqual(answer, await threeReads(engine, id), `task-${id}`);
          assert.deepEqual(
            JSON.stringify(answer),
            JSON.stringify(await threeReads(engine, id)),
            `task-${id}: same keys in the same order`,
          );
        }
        const parent = (await tasks.answer(`task-${ids.parent}`)) as unknown as {
          timeline: { kind: string }[];
          cost: { withSubtasks: { runs: number } | null };
          dependencies: { graph_id: string | null };
        };
        assert.deepEqual(
          parent.timeline.map((e) => e.kind),
          ['issue', 'milestone', 'decision'],
          'the timeline in time order',
        );
        assert.equal(parent.cost.withSubtasks?.runs, 3, 'the sub-tasks’ runs are summed');
        const { contexts } = await tasks.answer(ids.parent);
        assert.equal(contexts.total, 7);
        assert.deepEqual(
          contexts.newest.map((c) => [c.agent, c.progress, c.findings]),
          [
            ['coder', 'step 6', null],
            ['reviewer', 'step 5', null],
            ['coder', 'step 4', null],
            ['reviewer', 'step 3', 'the cache is cold'],
            ['coder', 'step 2', null],
          ],
        );
        assert.equal(
          parent.dependencies.graph_id,
          `wf-${(await engine.read((db) => db.get<{ workflow_id: number }>('SELECT workflow_id FROM tasks WHERE id = ?', [ids.parent])))!.workflow_id}`,
        );
        assert.equal(((await tasks.answer(ids.loose)) as unknown as typeof parent).dependencies.graph_id, null);
        // The Tasks tree and task_get agree on who was reviewed.
        const tree = await new TaskTreeQueries(engine).subTasks(ids.parent);
        for (const row of tree)
          assert.equal(
            row.completionReviewed,
            (await tasks.answer(row.task.id)).completionReview !== null,
            `task-${row.task.id}`,
          );
        assert.equal((await tasks.answer(ids.child)).landing?.by, 'ana', 'how it was landed');
        assert.deepEqual((await tasks.answer(ids.child)).completionReview, {
          verdict: 'approved',
          note: 'ok',
          reviewedBy: 'ana',
          reviewedAt: at(5),
        });
        await assert.rejects(tasks.answer(999_999), (err) => err instanceof LedgerError && err.code === 'TaskNotFound');
      } finally {
        await ledger.dispose();
      }
    },
  );
}

/** A TCP proxy that counts round trips: client bursts each sent after an answer came back. */
async function countingProxy(port: number): Promise<{ port: number; bursts: () => number; close: () => void }> {
  let bursts = 0;
  let answered = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    for (const s of [client, upstream]) s.on('error', () => undefined);
    upstream.on('data', (d) => {
      answered = true;
      client.write(d);
    });
    client.on('data', (d) => {
      if (answered) bursts++;
      answered = false;
      upstream.write(d);
    });
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    bursts: () => bursts,
    close: () => {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

test(
  'task_get on PostgreSQL: its answer takes a few round trips, not one per statement',
  { skip: pgSkip },
  async (t) => {
    const db = await createTestDatabase();
    const url = new URL(db.url);
    const proxy = await countingProxy(Number(url.port));
    url.port = String(proxy.port);
    const engine = await openEngine(url.toString(), { migrate: true, env: pgEnv, poolSize: 1 });
    try {
      const ids = await world(engine);
      const tasks = new TaskService(engine, systemClock);
      const settle = (): Promise<unknown> => new Promise((r) => setTimeout(r, 50));
      /** Round trips a read waited for: the bursts it sent, less its COMMIT (sent, not waited for). */
      const roundTrips = async (fn: () => Promise<unknown>, reads = 1): Promise<number> => {
        await settle();
        const before = proxy.bursts();
        await fn();
        await settle();
        return proxy.bursts() - before - reads;
      };
      await tasks.answer(ids.parent); // the connection is open
      const parent = await roundTrips(() => tasks.answer(ids.parent));
      const three = await roundTrips(() => threeReads(engine, ids.parent), 3);
      const loose = await roundTrips(() => tasks.answer(ids.loose));
      const list = await roundTrips(() => tasks.list({ limit: 50, offset: 0 }));
      t.diagnostic(
        `round trips: task_get ${parent} (three reads ${three}), task outside a workflow ${loose}, task_list ${list}`,
      );
      // The task with its timeline, sub-tasks and own costs; the plan graph, the workflow's statuses
      // and the sub-tasks' costs; the derived graph's workflow row; its tasks.
      assert.ok(parent <= 4, `task_get's answer: ${parent} round trips (the three reads took ${three})`);
      assert.ok(three > parent + 2, `three reads: ${three} round trips, one read: ${parent}`);
      assert.equal(loose, 1, 'a task outside a workflow without sub-tasks: one round trip');
      assert.equal(list, 1, 'task_list: the count and the page in one round trip');
    } finally {
      await engine.close();
      proxy.close();
      await db.drop();
    }
  },
);
