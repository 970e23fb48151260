/**
 * values_explain: why each step of a plan may start now, guard by guard, checked against what the
 * real gates then do — a step it says is held is refused by worker_command or start_task with the
 * code it named, and once the holds go it says so and the start goes through. Real server
 * processes over the SDK client, on the store the suite runs on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';

interface Explained {
  graph_id: string;
  decision: { allowed: boolean; steps: number; allowed_steps: number; truncated: boolean };
  steps: Array<{
    node_id: string;
    task_id: number | null;
    status: string | null;
    allowed: boolean;
    guards: Array<{ guard: string; passed: boolean; message: string }>;
  }>;
  plan: {
    lock: { holder: string } | null;
    transactions: Array<{ tx_id: string; owner: string | null }>;
    may_change: boolean;
    may_lock: boolean;
  };
  violations: Array<{ node_id: string | null; guard: string; code: string | null; hint: string; blocked_by: string[] }>;
}

const edge = (from: string, to: string) => ({ op: 'add_edge', edge: { from, to, label: 'depends_on' } });
const addNode = (id: string) => ({ op: 'add_node', node: { id, label: id } });

test('values_explain names the guard that holds each step, the real gates refuse with the same code, and once the holds go both let it start', async () => {
  const repo = tempRepo({ 'src/api/a.ts': 'a\n', 'docs/d.md': 'd\n' });
  const c = await connect(repo, ['--enable-orchestrator']);
  const other = await connect(repo, ['--enable-orchestrator']);
  try {
    const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', { name: 'ship' });
    // build: running (start_task), writing src/api.
    const build = await c.call<{ task_id: string }>('start_task', {
      workflow_id,
      name: 'build',
      goal: 'build it',
      areas: ['src/api'],
    });
    // api docs: open, also writes src/api; deploy: open, waits for build; notes: open, free.
    const ids: Record<string, number> = {};
    for (const [name, areas] of [
      ['api docs', ['src/api']],
      ['deploy', ['deploy']],
      ['notes', ['docs']],
    ] as const) {
      const t = await c.call<{ id: number }>('task_create', { title: name });
      await c.call('start_task', { task_id: t.id, workflow_id, name, goal: name, areas: [...areas], force: true });
      await c.call('task_update', { id: t.id, status: 'cancelled' });
      await c.call('task_update', { id: t.id, status: 'open' });
      ids[name] = t.id;
    }
    await c.call('graph_batch_mutate', {
      graph_id: workflow_id,
      operations: [edge(build.task_id, `task-${ids.deploy}`), addNode('review')],
    });

    const first = await c.call<Explained>('values_explain', { graph_id: workflow_id, owner: 'bob' });
    const byNode = new Map(first.steps.map((s) => [s.node_id, s]));
    const failed = (node: string) =>
      byNode
        .get(node)!
        .guards.filter((g) => !g.passed)
        .map((g) => g.guard);
    assert.deepEqual(failed(build.task_id), ['status'], 'build is already running');
    assert.deepEqual(failed(`task-${ids['api docs']}`), ['write_scope']);
    assert.deepEqual(failed(`task-${ids.deploy}`), ['dependencies']);
    assert.deepEqual(failed(`task-${ids.notes}`), []);
    assert.deepEqual(failed('review'), ['task'], 'a node that is not a ledger task is started by nothing');
    assert.deepEqual([first.decision.allowed, first.decision.steps, first.decision.allowed_steps], [false, 5, 1]);
    const violation = (node: string) => first.violations.find((v) => v.node_id === node)!;
    assert.equal(violation(`task-${ids['api docs']}`).code, 'E-CNP-SCOPE-CONFLICT');
    assert.deepEqual(violation(`task-${ids['api docs']}`).blocked_by, [build.task_id]);
    assert.equal(violation(`task-${ids.deploy}`).code, 'E-TASK-BLOCKED');
    assert.deepEqual(violation(`task-${ids.deploy}`).blocked_by, [build.task_id]);
    assert.ok(
      first.violations.every((v) => v.hint.length > 0),
      'every hold has a hint',
    );
    assert.deepEqual([first.plan.lock, first.plan.may_change, first.plan.may_lock], [null, true, true]);

    // The real gates agree, code for code.
    const overlap = await c.fail('worker_command', { taskId: ids['api docs'] });
    assert.equal(overlap.data?.error, 'E-CNP-SCOPE-CONFLICT');
    const blocked = await c.fail('start_task', {
      task_id: ids.deploy,
      workflow_id,
      name: 'deploy',
      goal: 'deploy',
    });
    assert.equal(blocked.data?.error, 'E-TASK-BLOCKED');

    // The plan's own guards: a lock and a transaction of other people.
    await other.call('graph_lock', { graph_id: workflow_id, holder: 'lead', ttl_ms: 60_000 });
    const locked = await c.call<Explained>('values_explain', {
      graph_id: workflow_id,
      node_ids: [`task-${ids.notes}`],
      owner: 'bob',
    });
    assert.deepEqual([locked.plan.lock?.holder, locked.plan.may_change, locked.plan.may_lock], ['lead', false, false]);
    assert.equal(locked.violations[0].code, 'E-GRAPH-MUTATION-LOCKED');
    assert.equal(locked.decision.allowed, true, 'a lock on the plan does not hold a step that may start');
    const refusedChange = await c.fail('graph_batch_mutate', {
      graph_id: workflow_id,
      owner: 'bob',
      operations: [addNode('x')],
    });
    assert.equal(refusedChange.data?.error, 'E-GRAPH-MUTATION-LOCKED', 'and the change it said is refused is');
    const asLead = await c.call<Explained>('values_explain', {
      graph_id: workflow_id,
      node_ids: [`task-${ids.notes}`],
      owner: 'lead',
    });
    assert.equal(asLead.plan.may_change, true);
    const tx = await other.call<{ tx_id: string }>('tx_begin', { graph_id: workflow_id, owner: 'lead' });
    const withTx = await c.call<Explained>('values_explain', {
      graph_id: workflow_id,
      node_ids: [`task-${ids.notes}`],
      owner: 'bob',
    });
    assert.deepEqual(
      withTx.plan.transactions.map((t) => [t.tx_id, t.owner]),
      [[tx.tx_id, 'lead']],
    );
    assert.ok(withTx.violations.some((v) => v.guard === 'transaction' && v.code === 'E-TX-OPEN'));
    await other.call('tx_rollback', { tx_id: tx.tx_id });

    // build ends: deploy's dependency is done and api docs' overlap is gone; both start.
    await c.call('complete_task', { task_id: build.task_id, status: 'success', outcome: { summary: 'built' } });
    const after = await c.call<Explained>('values_explain', {
      graph_id: workflow_id,
      node_ids: [`task-${ids['api docs']}`, `task-${ids.deploy}`],
    });
    assert.deepEqual(
      after.steps.map((s) => s.allowed),
      [true, true],
    );
    assert.equal(after.decision.allowed, true);
    const started = await c.call<{ sessionId: number }>('worker_command', { taskId: ids['api docs'] });
    assert.ok(started.sessionId > 0);
    await c.call('start_task', { task_id: ids.deploy, workflow_id, name: 'deploy', goal: 'deploy' });

    // Refusals are coded: an unknown graph, a node not in it.
    assert.equal((await c.fail('values_explain', { graph_id: 'nope' })).data?.error, 'E-RES-NOT-FOUND');
    const missing = await c.fail('values_explain', { graph_id: workflow_id, node_ids: ['task-999'] });
    assert.equal(missing.data?.error, 'E-RES-NOT-FOUND');
    assert.deepEqual(missing.data?.missing, ['task-999']);
  } finally {
    await c.close();
    await other.close();
  }
});
