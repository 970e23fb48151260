import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';

/** The plan-graph tools over the real SDK client against dist/cli.js. */

interface Graph {
  graph_id: string;
  graph_version: number;
  name: string;
  nodes: Array<{ id: string; label: string | null; attributes: Record<string, unknown> }>;
  edges: Array<{ from: string; to: string; label: string | null }>;
}
interface Batch {
  graph_id: string;
  base_version: number;
  committed_version: number;
  committed_at: number;
  changed: boolean;
  operations_applied: number;
  graph: Graph;
  owner: string | null;
  note: string | null;
  idempotent: boolean;
  idempotency_key: string | null;
}

const node = (id: string) => ({ op: 'add_node', node: { id, label: id } });
const edge = (from: string, to: string) => ({ op: 'add_edge', edge: { from, to, label: 'depends_on' } });

test('graph_batch_mutate commits versions, keeps the version when nothing changes, and refuses a stale expected_version', async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator']);
  try {
    const first = await c.call<Batch>('graph_batch_mutate', {
      graph_id: 'release',
      operations: [node('build'), node('test'), edge('build', 'test')],
      expected_version: 0,
      owner: 'planner',
      note: 'first plan',
    });
    assert.equal(first.base_version, 0);
    assert.equal(first.committed_version, 1);
    assert.equal(first.changed, true);
    assert.equal(first.owner, 'planner');
    assert.deepEqual(
      first.graph.nodes.map((n) => n.id),
      ['build', 'test'],
    );
    assert.equal(first.idempotent, false);

    const same = await c.call<Batch>('graph_batch_mutate', { graph_id: 'release', operations: [node('build')] });
    assert.equal(same.changed, false);
    assert.equal(same.committed_version, 1, 'a no-op keeps the version');
    assert.equal(same.committed_at, first.committed_at, 'and the commit time');

    const stale = await c.fail('graph_batch_mutate', {
      graph_id: 'release',
      operations: [node('ship')],
      expected_version: 0,
    });
    assert.equal(stale.data?.error, 'E-TX-CONFLICT');

    const v1 = await c.call<{ kind: string; payload: { version: number; graph: Graph } }>('resources_read', {
      uri: 'sc://graphs/release@v1',
    });
    assert.equal(v1.kind, 'graph_version');
    assert.equal(v1.payload.version, 1);
    assert.deepEqual(
      v1.payload.graph.edges.map((e) => `${e.from}>${e.to}`),
      ['build>test'],
    );
  } finally {
    await c.close();
  }
});

test('graph_batch_mutate is all or nothing: an operation that makes a cycle refuses the whole batch', async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator']);
  try {
    await c.call<Batch>('graph_batch_mutate', { graph_id: 'g', operations: [node('a'), node('b'), edge('a', 'b')] });
    const refused = await c.fail('graph_batch_mutate', {
      graph_id: 'g',
      operations: [node('c'), edge('b', 'c'), edge('c', 'a')],
    });
    assert.match(String(refused.data?.error), /E-PATCH-CYCLE|E-PATCH-INVARIANT-VIOLATION/);
    const after = await c.call<{ payload: { version: number; graph: Graph } }>('resources_read', {
      uri: 'sc://graphs/g',
    });
    assert.equal(after.payload.version, 1);
    assert.deepEqual(
      after.payload.graph.nodes.map((n) => n.id),
      ['a', 'b'],
      'node c of the refused batch is not there',
    );
  } finally {
    await c.close();
  }
});

test('graph_diff gives an RFC 6902 patch that graph_patch applies; invariants are on by default; base_version guards', async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator']);
  try {
    await c.call<Batch>('graph_batch_mutate', { graph_id: 'p', operations: [node('a'), node('b'), edge('a', 'b')] });
    await c.call<Batch>('graph_batch_mutate', {
      graph_id: 'p',
      operations: [{ op: 'set_node_attribute', id: 'b', key: 'status', value: 'done' }, node('c'), edge('b', 'c')],
    });
    const diff = await c.call<{
      changed: boolean;
      operations: unknown[];
      summary: Record<string, boolean>;
      from: { version: number };
      to: { version: number };
    }>('graph_diff', {
      graph_id: 'p',
      from: { version: 1 },
      to: { latest: true },
    });
    assert.equal(diff.changed, true);
    assert.equal(diff.from.version, 1);
    assert.equal(diff.to.version, 2);
    assert.deepEqual(diff.summary, {
      nameChanged: false,
      metadataChanged: false,
      nodesChanged: true,
      edgesChanged: true,
    });
    assert.ok(
      diff.operations.some((o) => (o as { path: string }).path === '/nodes/b/attributes/status'),
      'paths name nodes by id',
    );

    const inline = await c.call<{ changed: boolean; operations: Array<{ op: string; path: string }> }>('graph_diff', {
      graph_id: 'p',
      from: { latest: true },
      to: {
        graph: {
          nodes: [{ id: 'a' }, { id: 'b', attributes: { status: 'done' } }, { id: 'c' }, { id: 'd' }],
          edges: [
            { from: 'a', to: 'b', label: 'depends_on' },
            { from: 'b', to: 'c', label: 'depends_on' },
            { from: 'c', to: 'd' },
          ],
        },
      },
    });
    assert.ok(inline.operations.some((o) => o.op === 'add' && o.path === '/nodes/d'));
    assert.ok(inline.changed);

    const patched = await c.call<{
      base_version: number;
      committed_version: number;
      changed: boolean;
      invariants: { ok: boolean } | null;
      graph: Graph;
    }>('graph_patch', {
      graph_id: 'p',
      patch: inline.operations,
      base_version: 2,
    });
    assert.equal(patched.committed_version, 3);
    assert.deepEqual(patched.invariants, { ok: true });
    assert.deepEqual(
      patched.graph.nodes.map((n) => n.id),
      ['a', 'b', 'c', 'd'],
    );

    const stale = await c.fail('graph_patch', {
      graph_id: 'p',
      patch: [{ op: 'remove', path: '/nodes/d' }],
      base_version: 2,
    });
    assert.equal(stale.data?.error, 'E-TX-CONFLICT');
    const cycle = await c.fail('graph_patch', {
      graph_id: 'p',
      patch: [{ op: 'add', path: '/edges/d', value: { a: { label: 'depends_on', attributes: {} } } }],
    });
    assert.equal(cycle.data?.error, 'E-PATCH-CYCLE');
    const dangling = await c.fail('graph_patch', {
      graph_id: 'p',
      patch: [{ op: 'add', path: '/edges/d', value: { ghost: { label: null, attributes: {} } } }],
      enforce_invariants: false,
    });
    assert.equal(dangling.data?.error, 'E-GRAPH-INVALID-INPUT', 'structure is checked even with invariants off');
    const v3 = await c.call<{ payload: { version: number } }>('resources_read', { uri: 'sc://graphs/p' });
    assert.equal(v3.payload.version, 3, 'refused patches commit nothing');
  } finally {
    await c.close();
  }
});

test('graph_lock keeps other holders out (E-GRAPH-MUTATION-LOCKED), refreshes for its holder, lapses after its TTL, and a late unlock says expired', async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator']);
  try {
    await c.call<Batch>('graph_batch_mutate', { graph_id: 'locked', operations: [node('a')] });
    const lock = await c.call<{
      lock_id: string;
      holder: string;
      acquired_at: number;
      refreshed_at: number;
      expires_at: number;
    }>('graph_lock', { graph_id: 'locked', holder: 'alice', ttl_ms: 60_000 });
    assert.equal(lock.expires_at, lock.refreshed_at + 60_000);
    const other = await c.fail('graph_batch_mutate', { graph_id: 'locked', operations: [node('b')], owner: 'bob' });
    assert.equal(other.data?.error, 'E-GRAPH-MUTATION-LOCKED');
    const anonymous = await c.fail('graph_patch', { graph_id: 'locked', patch: [{ op: 'remove', path: '/nodes/a' }] });
    assert.equal(anonymous.data?.error, 'E-GRAPH-MUTATION-LOCKED');
    const held = await c.fail('graph_lock', { graph_id: 'locked', holder: 'bob' });
    assert.equal(held.data?.error, 'E-LOCK-HELD');
    const mine = await c.call<Batch>('graph_batch_mutate', {
      graph_id: 'locked',
      operations: [node('b')],
      owner: 'alice',
    });
    assert.equal(mine.committed_version, 2);

    const refreshed = await c.call<{ lock_id: string; acquired_at: number; expires_at: number }>('graph_lock', {
      graph_id: 'locked',
      holder: 'alice',
      ttl_ms: 150,
    });
    assert.equal(refreshed.lock_id, lock.lock_id, 'the same holder keeps the lock id');
    assert.equal(refreshed.acquired_at, lock.acquired_at);
    await new Promise((r) => setTimeout(r, 400));
    const afterTtl = await c.call<Batch>('graph_batch_mutate', {
      graph_id: 'locked',
      operations: [node('c')],
      owner: 'bob',
    });
    assert.equal(afterTtl.committed_version, 3, 'a lapsed lock protects nothing');
    const late = await c.call<{ lock_id: string; expired: boolean; holder: string }>('graph_unlock', {
      lock_id: lock.lock_id,
    });
    assert.equal(late.expired, true);
    assert.equal(late.holder, 'alice');
    const gone = await c.fail('graph_unlock', { lock_id: lock.lock_id });
    assert.equal(gone.data?.error, 'E-LOCK-NOT-FOUND');
  } finally {
    await c.close();
  }
});

test("a workflow's plan is the graph wf-<id>: its tasks as nodes before the first commit, depends_on edges after; task_get and task_list ready follow them", async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator']);
  try {
    const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', { name: 'ship it' });
    const a = await c.call<{ task_id: string }>('start_task', { workflow_id, name: 'build', goal: 'build it' });
    const b = await c.call<{ task_id: string }>('start_task', { workflow_id, name: 'deploy', goal: 'deploy it' });
    const v0 = await c.call<{ payload: { version: number; graph: Graph } }>('resources_read', {
      uri: `sc://graphs/${workflow_id}`,
    });
    assert.equal(v0.payload.version, 0);
    assert.equal(v0.payload.graph.name, 'ship it');
    assert.deepEqual(v0.payload.graph.nodes.map((n) => n.id).sort(), [a.task_id, b.task_id].sort());
    const committed = await c.call<Batch>('graph_batch_mutate', {
      graph_id: workflow_id,
      operations: [edge(a.task_id, b.task_id)],
      expected_version: 0,
    });
    assert.equal(committed.committed_version, 1);
    assert.deepEqual(
      committed.graph.edges.map((e) => [e.from, e.to, e.label]),
      [[a.task_id, b.task_id, 'depends_on']],
    );
    const got = await c.call<{
      id: number;
      dependencies: {
        graph_id: string;
        depends_on: Array<{ id: string; status: string; done: boolean }>;
        ready: boolean;
      };
    }>('task_get', { id: b.task_id });
    assert.equal(got.dependencies.graph_id, workflow_id);
    assert.deepEqual(got.dependencies.depends_on, [{ id: a.task_id, status: 'in_progress', done: false }]);
    assert.equal(got.dependencies.ready, false);
    const free = await c.call<{ id: number }>('task_create', { title: 'unplanned' });
    const ready = await c.call<{ tasks: Array<{ id: number }>; total: number }>('task_list', { ready: true });
    assert.deepEqual(
      ready.tasks.map((t) => t.id),
      [free.id],
      'open tasks whose dependencies are done',
    );
    await c.call('complete_task', { task_id: a.task_id, status: 'success', outcome: { summary: 'built' } });
    const after = await c.call<{ dependencies: { ready: boolean } }>('task_get', { id: b.task_id });
    assert.equal(after.dependencies.ready, true, 'ready once the dependency is done');
    const list = await c.call<{ items: Array<{ uri: string; kind: string }> }>('resources_list', {
      prefix: `sc://graphs/${workflow_id}`,
    });
    assert.deepEqual(
      list.items.map((i) => i.uri),
      [`sc://graphs/${workflow_id}`, `sc://graphs/${workflow_id}@v1`],
    );
  } finally {
    await c.close();
  }
});

test('task_get in one server process follows the plan changes another server process commits (each keeps the latest plan in memory)', async () => {
  const repo = tempRepo();
  const c = await connect(repo, ['--enable-orchestrator']);
  const other = await connect(repo, ['--enable-orchestrator']);
  try {
    const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', { name: 'two servers' });
    const ids: string[] = [];
    for (const name of ['build', 'test', 'docs'])
      ids.push((await c.call<{ task_id: string }>('start_task', { workflow_id, name, goal: name })).task_id);
    const dependsOn = async (id: string) =>
      (
        await c.call<{ dependencies: { depends_on: Array<{ id: string }> } }>('task_get', { id })
      ).dependencies.depends_on.map((x) => x.id);
    await c.call('graph_batch_mutate', { graph_id: workflow_id, operations: [edge(ids[0], ids[2])] });
    assert.deepEqual(await dependsOn(ids[2]), [ids[0]]);
    assert.deepEqual(await dependsOn(ids[2]), [ids[0]], 'read again while nothing changed');
    await other.call('graph_batch_mutate', { graph_id: workflow_id, operations: [edge(ids[1], ids[2])] });
    assert.deepEqual(
      await dependsOn(ids[2]),
      [ids[0], ids[1]],
      "the other process's commit is seen at the next task_get",
    );
    await other.call('graph_batch_mutate', {
      graph_id: workflow_id,
      operations: [{ op: 'remove_edge', from: ids[0], to: ids[2] }],
    });
    assert.deepEqual(await dependsOn(ids[2]), [ids[1]]);
  } finally {
    await other.close();
    await c.close();
  }
});
