// Plan runs on both engines, two processes' worth of services on one ledger: what a tick decides
// and writes (queue once, whoever ticks), the tree's semantics with real tasks (retry, fallback,
// op_cancel, guard, timeout, gates, tool leaves), and refusals that write nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LedgerEngine } from '../../../../../src/core/ports/store';
import type { AgentDefinition } from '../../../../../src/core/agents/agentModel';
import type { AgentDirectory } from '../../../../../src/core/runtime/pm/projectRows';
import { ProjectService } from '../../../../../src/core/runtime/pm/projectService';
import { TaskQueue } from '../../../../../src/core/runtime/pm/taskQueue';
import { PlanRunService } from '../../../../../src/core/runtime/planRuns/planRunService';
import type { StartRun } from '../../../../../src/core/runtime/planRuns/planRunService';
import type { BtNode } from '../../../../../src/core/runtime/planRuns/behaviourTree';
import { LedgerError } from '../../../../../src/core/errors';
import { runWritingAs } from '../../../../../src/core/caller';
import { engineCases } from '../../../store/engines/engineKit';
import { tempDir } from '../../../../helpers/tmp';
import type { Services } from '../../../../../src/app/services';
import { planRunView, steerPlanRun } from '../../../../../src/views/planRunModel';

const agent = (name: string): AgentDefinition => ({
  name,
  description: null,
  client: 'claude-code',
  model: null,
  scope: { read: ['**'], write: ['**'], exclude: [] },
  permissions: { level: 'commit', commands: [], never: [] },
  config: {},
  promptContent: '',
  file: `.agent-ledger/agents/${name}.yaml`,
});

const directory: AgentDirectory = {
  current: () => ({ agents: [agent('coder'), agent('tester')], problems: [] }),
  lookup: (name) => {
    if (name !== 'coder' && name !== 'tester') throw new LedgerError('AgentNotFound', `no agent ${name}`);
    return agent(name);
  },
};

interface World {
  a: PlanRunService;
  b: PlanRunService;
  engine: LedgerEngine;
  stopped: string[];
  clock: { now: number };
  task(title: string): Promise<string>;
  status(id: string): Promise<string>;
  end(id: string, status: 'done' | 'failed'): Promise<void>;
  start(input: StartRun): Promise<string>;
  node(runId: string, id: string): Promise<{ status: string; attempts: number | null; reason: string | null }>;
  launches(taskId: string): Promise<number>;
}

async function world(engineA: LedgerEngine, engineB: LedgerEngine): Promise<World> {
  const workspace = tempDir();
  const clock = { now: Date.parse('2026-01-01T10:00:00Z') };
  const now = () => new Date(clock.now);
  await new ProjectService(engineA, workspace, directory, now).create({ name: 'web', workingDirectory: '.' });
  await new ProjectService(engineA, workspace, directory, now).addAgent('web', 'coder');
  await new ProjectService(engineA, workspace, directory, now).addAgent('web', 'tester');
  const stopped: string[] = [];
  const service = (engine: LedgerEngine) =>
    new PlanRunService({
      engine,
      queue: new TaskQueue(engine, workspace, directory, now),
      agents: directory,
      instances: { stop: async (ref) => void stopped.push(ref) },
      now: () => clock.now,
    });
  const a = service(engineA);
  const b = service(engineB);
  const status = async (id: string) =>
    (await engineA.read((db) =>
      db.get<{ status: string }>('SELECT status FROM tasks WHERE id = ?', [Number(id.slice(5))]),
    ))!.status;
  return {
    a,
    b,
    engine: engineA,
    stopped,
    clock,
    async task(title) {
      const ts = now().toISOString();
      const id = await engineA.write((tx) =>
        tx.insert("INSERT INTO tasks (title, status, created_at, updated_at) VALUES (?, 'open', ?, ?)", [
          title,
          ts,
          ts,
        ]),
      );
      return `task-${id}`;
    },
    status,
    async end(id, s) {
      await engineB.write((tx) =>
        tx.run('UPDATE tasks SET status = ?, updated_at = ? WHERE id = ?', [
          s,
          now().toISOString(),
          Number(id.slice(5)),
        ]),
      );
    },
    async start(input) {
      const r = await engineA.write((tx) => a.startIn(tx, input, 'bt', { opId: `op-${Math.random()}` }));
      return r.output.run_id;
    },
    async node(runId, id) {
      const [run] = await a.status(runId);
      const n = run.nodes.find((x) => x.id === id);
      assert.ok(n, `${id} in ${JSON.stringify(run.nodes.map((x) => x.id))}`);
      return { status: n.status, attempts: n.attempts, reason: n.reason };
    },
    async launches(taskId) {
      const row = await engineA.read((db) =>
        db.get<{ n: number }>('SELECT COUNT(*) AS n FROM plan_run_ops WHERE task_id = ?', [Number(taskId.slice(5))]),
      );
      return Number(row?.n ?? 0);
    },
  };
}

const tree = (root: BtNode) => ({ tree: { id: 't', root } });

for (const engineCase of engineCases) {
  test(
    `plan runs on ${engineCase.name}: two processes ticking at once queue each task once; dependants start as their dependency ends`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const w = await world(await ledger.open(), await ledger.open());
        const t1 = await w.task('one');
        const t2 = await w.task('two');
        const t3 = await w.task('three');
        const runId = await w.start({
          ...tree({
            type: 'parallel',
            policy: 'all',
            children: [
              { type: 'task', node_id: t1 },
              { type: 'task', node_id: t2, after: [t1] },
              { type: 'task', node_id: t3, after: [t1] },
            ],
          }),
          agent: 'coder',
        });
        assert.equal(await w.status(t1), 'in_progress');
        assert.equal(await w.status(t2), 'open');
        await w.end(t1, 'done');
        // Both "processes" tick at once, several times: each dependant is queued once.
        await Promise.all([
          w.a.advance(Number(runId.slice(5))),
          w.b.advance(Number(runId.slice(5))),
          w.b.advance(Number(runId.slice(5))),
        ]);
        assert.equal(await w.status(t2), 'in_progress');
        assert.equal(await w.status(t3), 'in_progress');
        assert.deepEqual([await w.launches(t1), await w.launches(t2), await w.launches(t3)], [1, 1, 1]);
        await w.end(t2, 'done');
        await w.end(t3, 'done');
        await w.b.advance(Number(runId.slice(5)));
        const [run] = await w.a.status(runId);
        assert.equal(run.status, 'succeeded');
        assert.equal(run.progress.percent, 100);
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `plan runs on ${engineCase.name}: retry then fallback, op_cancel is not retried, guard, timeout, gate by a person, tool leaves`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const w = await world(await ledger.open(), await ledger.open());
        const [a, b, c, d, e] = [
          await w.task('a'),
          await w.task('b'),
          await w.task('c'),
          await w.task('d'),
          await w.task('e'),
        ];
        const calls: Array<[string, unknown]> = [];
        w.a.attachToolCaller(async (name, input) => {
          calls.push([name, input]);
          if (name === 'bb_get') throw new LedgerError('NotFound', 'no such key');
          return { ok: true };
        });
        const runId = await w.start({
          ...tree({
            type: 'sequence',
            id: 'all',
            children: [
              {
                type: 'selector',
                id: 'pick',
                children: [
                  { type: 'retry', id: 'r', max_attempts: 3, child: { type: 'task', node_id: a } },
                  { type: 'task', node_id: b },
                ],
              },
              {
                type: 'guard',
                id: 'g',
                condition_key: 'skip_docs',
                expected: false,
                child: { type: 'task', node_id: c },
              },
              {
                type: 'selector',
                id: 'slow',
                children: [
                  { type: 'timeout', id: 'to', timeout_ms: 60_000, child: { type: 'task', node_id: d } },
                  { type: 'tool', id: 'note', tool: 'bb_set', input: { key: 'k', value: 1 } },
                ],
              },
              { type: 'gate', id: 'ok', title: 'looks right' },
              {
                type: 'selector',
                id: 'last',
                children: [
                  { type: 'tool', id: 'bad', tool: 'bb_get', input: { key: 'x' } },
                  { type: 'task', node_id: e },
                ],
              },
            ],
          }),
          agent: 'tester',
          variables: { skip_docs: false },
        });
        const id = Number(runId.slice(5));
        // a fails three times: three launches, then b.
        for (let i = 0; i < 3; i++) {
          assert.equal(await w.status(a), 'in_progress', `attempt ${i + 1}`);
          await w.end(a, 'failed');
          await w.a.advance(id);
        }
        assert.equal(await w.launches(a), 3);
        assert.deepEqual(await w.node(runId, 'r'), { status: 'failure', attempts: 3, reason: 'failed 3 times' });
        assert.equal(await w.status(b), 'in_progress');
        await w.end(b, 'done');
        await w.a.advance(id);
        // The guard's variable is false as expected: c runs.
        assert.equal(await w.status(c), 'in_progress');
        await w.end(c, 'done');
        await w.a.advance(id);
        // d times out: its task is cancelled, its agent stopped (none runs here), then the fallback tool is called.
        assert.equal(await w.status(d), 'in_progress');
        w.clock.now += 61_000;
        await w.a.advance(id);
        assert.equal(await w.status(d), 'cancelled');
        assert.equal((await w.node(runId, 'to')).status, 'failure');
        assert.deepEqual(calls[0], ['bb_set', { key: 'k', value: 1 }]);
        assert.equal((await w.node(runId, 'note')).status, 'success');
        // The gate waits for a person: an agent's call is refused, changing nothing; a person's passes.
        assert.match((await w.node(runId, 'ok')).reason ?? '', /waits for a person/);
        await assert.rejects(
          runWritingAs('agent:tester', () => w.a.decideGate({ run_id: runId, node_id: 'ok', approve: true })),
          (err: unknown) => LedgerError.is(err, 'Unauthorized'),
        );
        assert.equal((await w.node(runId, 'ok')).status, 'waiting');
        await runWritingAs('connection:test', () => w.b.decideGate({ run_id: runId, node_id: 'ok', approve: true }));
        // That process has no tool caller: the next tool leaf waits for one that has (this one).
        assert.match((await w.node(runId, 'bad')).reason ?? '', /waits for an MCP server/);
        await w.a.advance(id);
        // The failing tool leaf fails; its alternative task runs.
        assert.equal((await w.node(runId, 'bad')).status, 'failure');
        assert.equal(await w.status(e), 'in_progress');
        // op_cancel of e's launch stops it and is not retried: the selector, then the run, fail.
        const [run] = await w.a.status(runId);
        const opId = run.nodes.find((n) => n.task_id === e)!.op_id!;
        // An agent's cancel is recorded as that agent.
        const after = await runWritingAs('agent:tester', () => w.a.cancelOp(opId));
        assert.equal(after.nodes.find((n) => n.task_id === e)?.reason, `cancelled by agent:tester: op_cancel ${opId}`);
        assert.equal(await w.status(e), 'cancelled');
        assert.equal(after.status, 'failed');
        await assert.rejects(w.a.cancelOp(opId), (err: unknown) => LedgerError.is(err, 'InvalidStatus'));
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `plan runs on ${engineCase.name}: refused starts write nothing; a graph that does not exist is refused`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const w = await world(await ledger.open(), await ledger.open());
        const t1 = await w.task('one');
        const counts = () =>
          w.engine.read(async (db) => ({
            runs: Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM plan_runs'))!.n),
            events: Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM events'))!.n),
            queued: Number(
              (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE status = 'in_progress'"))!.n,
            ),
          }));
        const before = await counts();
        const refusals: Array<[StartRun, string]> = [
          [tree({ type: 'task', node_id: 'task-999' }), 'TaskNotFound'],
          [tree({ type: 'task', node_id: t1 }), 'ValidationError'],
          [{ ...tree({ type: 'task', node_id: t1 }), agent: 'nobody' }, 'AgentNotFound'],
          [
            {
              ...tree({
                type: 'parallel',
                policy: 'all',
                children: [
                  { type: 'gate', id: 'x', title: 'x', after: ['y'] },
                  { type: 'gate', id: 'y', title: 'y', after: ['x'] },
                ],
              }),
            },
            'ValidationError',
          ],
          [
            tree({
              type: 'sequence',
              children: [
                { type: 'task', node_id: t1 },
                { type: 'task', node_id: t1 },
              ],
            }),
            'ValidationError',
          ],
          [tree({ type: 'tool', tool: 'plan_run_bt' }), 'ValidationError'],
        ];
        for (const [input, code] of refusals)
          await assert.rejects(
            w.start(input),
            (err: unknown) => LedgerError.is(err, code as never),
            JSON.stringify(input),
          );
        assert.deepEqual(await counts(), before, 'nothing was written by a refused start');

        const graph = { graph: { nodes: [{ id: t1 }], edges: [] } };
        await w.start({ ...graph, agent: 'coder' });
        const second = await w.engine
          .write((tx) => w.a.startIn(tx, { graph_id: 'wf-1', agent: 'coder' }, 'bt', { opId: 'x' }))
          .catch((err: unknown) => err);
        assert.ok(LedgerError.is(second, 'NotFound'), 'no workflow 1: its graph does not exist');
      } finally {
        await ledger.dispose();
      }
    },
  );
}

test("a person's Pause, Resume, gate decision and Cancel from a view: recorded as theirs, the run's view follows", async () => {
  const ledger = await engineCases[0].ledger();
  try {
    const w = await world(await ledger.open(), await ledger.open());
    const t1 = await w.task('one');
    const t2 = await w.task('two');
    const runId = await w.start({
      ...tree({
        type: 'sequence',
        children: [
          { type: 'task', node_id: t1 },
          { type: 'gate', id: 'go', title: 'one looks right' },
          { type: 'task', node_id: t2 },
        ],
      }),
      agent: 'coder',
    });
    const services = { planRuns: w.a } as unknown as Services;
    const view = async () => planRunView((await w.a.status(runId))[0]);
    assert.deepEqual(
      (await w.a.active()).map((r) => r.run_id),
      [runId],
      'the Board lists the run going on',
    );

    assert.equal(
      await steerPlanRun(services, 'ann', { type: 'planRun', runId, action: 'pause' }),
      `${runId} is paused.`,
    );
    assert.equal((await view()).reason, 'paused by ann');
    assert.deepEqual((await view()).actions, ['resume', 'cancel']);
    assert.equal((await w.a.status(runId))[0].reason, 'paused by person:ann', 'the service records the person');
    await steerPlanRun(services, 'ann', { type: 'planRun', runId, action: 'resume' });

    await w.end(t1, 'done');
    await w.a.advance(Number(runId.slice(5)));
    const gate = (await view()).leaves.find((l) => l.id === 'go')!;
    assert.equal(gate.state, 'needs-person');
    assert.equal(
      await steerPlanRun(services, 'ann', { type: 'planGate', runId, nodeId: 'go', approve: true }),
      `go approved: ${runId} is running.`,
    );
    const decided = await w.engine.read((db) =>
      db.get<{ state: string }>('SELECT state FROM plan_runs WHERE id = ?', [Number(runId.slice(5))]),
    );
    assert.equal((JSON.parse(decided!.state) as Record<string, { decided_by?: string }>).go.decided_by, 'person:ann');
    assert.equal(await w.status(t2), 'in_progress', 'the task after the gate is queued');
    // A second click on a stale Approve is refused with the service's coded error, changing nothing.
    await assert.rejects(
      steerPlanRun(services, 'ann', { type: 'planGate', runId, nodeId: 'go', approve: false }),
      (err: unknown) => LedgerError.is(err, 'InvalidStatus'),
    );

    assert.equal(
      await steerPlanRun(services, 'bob', { type: 'planRun', runId, action: 'cancel' }),
      `${runId} is cancelled.`,
    );
    assert.equal((await view()).reason, 'cancelled by bob');
    assert.equal((await w.a.status(runId))[0].reason, 'cancelled by person:bob', 'the service records who cancelled');
    assert.deepEqual((await view()).actions, []);
    assert.equal(await w.status(t2), 'cancelled');
    assert.deepEqual(await w.a.active(), [], 'the Board has no run going on');
  } finally {
    await ledger.dispose();
  }
});
