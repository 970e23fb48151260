/**
 * Transactions on a stored plan graph (tx_begin, tx_apply, tx_commit, tx_rollback) with the real
 * SDK client against the built server, two servers of one workspace standing for two agents, on
 * the store the suite runs on (`npm run test:pg` runs it on PostgreSQL). Every refusal is checked
 * for its code and against a dump of the whole ledger taken before it: nothing written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient, ToolError } from '../helpers/mcpClient';
import { dumpDifference, ledgerDumper } from '../helpers/storeDump';
import type { LedgerDumper } from '../helpers/storeDump';
import { tempRepo } from '../helpers/tmp';

interface Graph {
  graph_id: string;
  graph_version: number;
  nodes: Array<{ id: string; label: string | null; attributes: Record<string, unknown> }>;
  edges: Array<{ from: string; to: string }>;
}
interface Begun {
  tx_id: string;
  graph_id: string;
  base_version: number;
  expires_at: number;
  graph: Graph;
  idempotent: boolean;
}
interface Applied {
  preview_version: number;
  changed: boolean;
  expires_at: number;
  graph: Graph;
}
interface Committed {
  tx_id: string;
  base_version: number;
  version: number;
  changed: boolean;
  merged: boolean;
  graph: Graph;
}

const node = (id: string) => ({ op: 'add_node', node: { id, label: id } });
const edge = (from: string, to: string) => ({ op: 'add_edge', edge: { from, to, label: 'depends_on' } });
const status = (id: string, value: string) => ({ op: 'set_node_attribute', id, key: 'status', value });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

const args = ['--enable-tx', '--enable-locks', '--enable-resources', '--enable-bulk'];

/** Two servers on one workspace (two agents), a graph a→b at version 1, and a dumper of the ledger. */
async function twoAgents(): Promise<{
  a: LedgerClient;
  b: LedgerClient;
  dumper: LedgerDumper;
  close(): Promise<void>;
}> {
  const repo = tempRepo();
  const a = await connect(repo, args);
  const b = await connect(repo, args);
  await a.call('graph_batch_mutate', { graph_id: 'plan', operations: [node('a'), node('b'), edge('a', 'b')] });
  const dumper = await ledgerDumper(repo);
  return {
    a,
    b,
    dumper,
    close: async () => {
      await Promise.all([a.close(), b.close()]);
      await dumper.close();
    },
  };
}

/** The refusal of a call, after checking that it wrote nothing at all. */
async function refusedWritingNothing(
  dumper: LedgerDumper,
  client: LedgerClient,
  tool: string,
  input: Record<string, unknown>,
): Promise<ToolError> {
  const before = await dumper.dump();
  const error = await client.fail(tool, input);
  assert.deepEqual(dumpDifference(before, await dumper.dump()), [], `${tool} refused (${error.message}) but wrote`);
  return error;
}

async function latest(client: LedgerClient, graphId = 'plan'): Promise<{ version: number; graph: Graph }> {
  return (
    await client.call<{ payload: { version: number; graph: Graph } }>('resources_read', {
      uri: `sc://graphs/${graphId}`,
    })
  ).payload;
}

test('two agents in transactions on one graph: the first commit wins, the second is refused with E-TX-CONFLICT and writes nothing', async () => {
  const { a, b, dumper, close } = await twoAgents();
  try {
    const ta = await a.call<Begun>('tx_begin', { graph_id: 'plan', owner: 'alice' });
    const tb = await b.call<Begun>('tx_begin', { graph_id: 'plan', owner: 'bob' });
    assert.equal(ta.base_version, 1);
    assert.equal(tb.base_version, 1);
    assert.notEqual(ta.tx_id, tb.tx_id);

    const pa = await a.call<Applied>('tx_apply', { tx_id: ta.tx_id, operations: [status('b', 'done')] });
    assert.equal(pa.changed, true);
    assert.equal(pa.preview_version, 2);
    await b.call<Applied>('tx_apply', { tx_id: tb.tx_id, operations: [status('b', 'failed')] });
    assert.equal((await latest(a)).version, 1, 'nothing is committed before tx_commit');

    const ca = await a.call<Committed>('tx_commit', { tx_id: ta.tx_id });
    assert.deepEqual([ca.base_version, ca.version, ca.changed, ca.merged], [1, 2, true, false]);

    const conflict = await refusedWritingNothing(dumper, b, 'tx_commit', { tx_id: tb.tx_id });
    assert.equal(conflict.data?.error, 'E-TX-CONFLICT');
    assert.deepEqual(conflict.data?.places, ['nodes/b/attributes/status']);
    assert.equal(conflict.data?.committed_version, 2);

    const now = await latest(b);
    assert.equal(now.version, 2);
    assert.equal(now.graph.nodes.find((n) => n.id === 'b')?.attributes.status, 'done', "alice's change stands");

    // The refused transaction stays open until its owner rolls it back.
    const rolled = await b.call<{ expired: boolean; version: number; snapshot: Graph }>('tx_rollback', {
      tx_id: tb.tx_id,
    });
    assert.equal(rolled.expired, false);
    assert.equal(rolled.version, 1);
    assert.equal(rolled.snapshot.nodes.find((n) => n.id === 'b')?.attributes.status, undefined);
    const gone = await refusedWritingNothing(dumper, b, 'tx_commit', { tx_id: tb.tx_id });
    assert.equal(gone.data?.error, 'E-TX-NOT-FOUND');

    // The commit is a version like any other, and its snapshot is the transaction.
    const snapshot = await a.call<{ kind: string }>('resources_read', { uri: `sc://snapshots/plan/${ta.tx_id}` });
    assert.equal(snapshot.kind, 'snapshot');

    // Two commits at the same moment from two servers: the store orders them, one wins.
    const [tc, td] = await Promise.all([
      a.call<Begun>('tx_begin', { graph_id: 'plan' }),
      b.call<Begun>('tx_begin', { graph_id: 'plan' }),
    ]);
    await a.call('tx_apply', { tx_id: tc.tx_id, operations: [status('a', 'left')] });
    await b.call('tx_apply', { tx_id: td.tx_id, operations: [status('a', 'right')] });
    const raced = await Promise.allSettled([
      a.call<Committed>('tx_commit', { tx_id: tc.tx_id }),
      b.call<Committed>('tx_commit', { tx_id: td.tx_id }),
    ]);
    const won = raced.filter((r): r is PromiseFulfilledResult<Committed> => r.status === 'fulfilled');
    const lost = raced.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(won.length, 1, `exactly one commit wins: ${JSON.stringify(raced.map((r) => r.status))}`);
    assert.match(String((lost[0].reason as Error).message), /E-TX-CONFLICT/);
    const final = await latest(a);
    assert.equal(final.version, 3);
    assert.equal(
      final.graph.nodes.find((n) => n.id === 'a')?.attributes.status,
      won[0].value.graph.nodes.find((n) => n.id === 'a')?.attributes.status,
      "the winner's value is the committed one",
    );
  } finally {
    await close();
  }
});

test('changes that commute are merged over a graph that moved; overlapping ones and broken invariants are conflicts', async () => {
  const { a, b, dumper, close } = await twoAgents();
  try {
    // Different places: alice marks a, bob adds c after b.
    const ta = await a.call<Begun>('tx_begin', { graph_id: 'plan' });
    const tb = await b.call<Begun>('tx_begin', { graph_id: 'plan' });
    await a.call('tx_apply', { tx_id: ta.tx_id, operations: [status('a', 'done')] });
    await b.call('tx_apply', { tx_id: tb.tx_id, operations: [node('c'), edge('b', 'c')] });
    await a.call<Committed>('tx_commit', { tx_id: ta.tx_id });
    const cb = await b.call<Committed>('tx_commit', { tx_id: tb.tx_id });
    assert.deepEqual([cb.base_version, cb.version, cb.merged], [1, 3, true]);
    assert.equal(cb.graph.nodes.find((n) => n.id === 'a')?.attributes.status, 'done', "alice's change is kept");
    assert.deepEqual(
      cb.graph.edges.map((e) => `${e.from}>${e.to}`),
      ['a>b', 'b>c'],
    );

    // The same value at the same place on both sides agrees.
    const tc = await a.call<Begun>('tx_begin', { graph_id: 'plan' });
    const td = await b.call<Begun>('tx_begin', { graph_id: 'plan' });
    await a.call('tx_apply', { tx_id: tc.tx_id, operations: [status('c', 'done')] });
    await b.call('tx_apply', { tx_id: td.tx_id, operations: [status('c', 'done'), status('b', 'done')] });
    await a.call('tx_commit', { tx_id: tc.tx_id });
    const cd = await b.call<Committed>('tx_commit', { tx_id: td.tx_id });
    assert.equal(cd.merged, true);
    assert.equal(cd.version, 5);

    // A commit made outside any transaction moves the graph just the same.
    const te = await b.call<Begun>('tx_begin', { graph_id: 'plan' });
    await b.call('tx_apply', { tx_id: te.tx_id, operations: [{ op: 'remove_node', id: 'c' }] });
    await a.call('graph_batch_mutate', { graph_id: 'plan', operations: [node('d'), edge('c', 'd')] });
    const dangling = await refusedWritingNothing(dumper, b, 'tx_commit', { tx_id: te.tx_id });
    assert.equal(dangling.data?.error, 'E-TX-CONFLICT', 'removing c beside a new edge c→d would leave it dangling');
    assert.match(dangling.message, /invariant/);
    await b.call('tx_rollback', { tx_id: te.tx_id });

    // Two new edges that close a cycle together (a→b→c→d, then d→e on one side and e→a on the other).
    const tf = await a.call<Begun>('tx_begin', { graph_id: 'plan' });
    const tg = await b.call<Begun>('tx_begin', { graph_id: 'plan' });
    await a.call('tx_apply', { tx_id: tf.tx_id, operations: [node('e'), edge('d', 'e')] });
    await b.call('tx_apply', { tx_id: tg.tx_id, operations: [node('e'), edge('e', 'a')] });
    await a.call('tx_commit', { tx_id: tf.tx_id });
    const cycle = await refusedWritingNothing(dumper, b, 'tx_commit', { tx_id: tg.tx_id });
    assert.equal(cycle.data?.error, 'E-TX-CONFLICT');
    assert.equal((cycle.data?.violations as Array<{ code: string }>)[0].code, 'E-PATCH-CYCLE');

    // An operation that breaks an invariant in the working copy is refused by tx_apply itself.
    const badApply = await refusedWritingNothing(dumper, b, 'tx_apply', {
      tx_id: tg.tx_id,
      operations: [edge('b', 'zz')],
    });
    assert.equal(badApply.data?.error, 'E-GRAPH-INVALID-INPUT');
  } finally {
    await close();
  }
});

test('a lock holder keeps other transactions out, and an open transaction keeps other holders from graph_lock', async () => {
  const { a, b, dumper, close } = await twoAgents();
  try {
    const lock = await a.call<{ lock_id: string }>('graph_lock', { graph_id: 'plan', holder: 'lead' });
    for (const input of [{ graph_id: 'plan' }, { graph_id: 'plan', owner: 'bob' }]) {
      const refused = await refusedWritingNothing(dumper, b, 'tx_begin', input);
      assert.equal(refused.data?.error, 'E-GRAPH-MUTATION-LOCKED');
      assert.equal(refused.data?.holder, 'lead');
    }
    // The holder works in a transaction of its own under its lock.
    const own = await a.call<Begun>('tx_begin', { graph_id: 'plan', owner: 'lead' });
    await a.call('tx_apply', { tx_id: own.tx_id, operations: [status('a', 'done')] });
    assert.equal((await a.call<Committed>('tx_commit', { tx_id: own.tx_id })).version, 2);
    await a.call('graph_unlock', { lock_id: lock.lock_id });

    // And the other way round: bob's open transaction keeps lead from locking, not bob.
    const tb = await b.call<Begun>('tx_begin', { graph_id: 'plan', owner: 'bob' });
    const held = await refusedWritingNothing(dumper, a, 'graph_lock', { graph_id: 'plan', holder: 'lead' });
    assert.equal(held.data?.error, 'E-TX-OPEN');
    assert.equal(held.data?.tx_id, tb.tx_id);
    assert.equal(held.data?.owner, 'bob');
    const bobs = await b.call<{ lock_id: string }>('graph_lock', { graph_id: 'plan', holder: 'bob' });
    await b.call('tx_apply', { tx_id: tb.tx_id, operations: [status('b', 'done')] });
    assert.equal((await b.call<Committed>('tx_commit', { tx_id: tb.tx_id })).version, 3);
    await b.call('graph_unlock', { lock_id: bobs.lock_id });
    // With the transaction ended, lead may lock again.
    await a.call('graph_lock', { graph_id: 'plan', holder: 'lead' });
  } finally {
    await close();
  }
});

test('a transaction abandoned by a dead client expires: it stops holding the graph, and its id is refused', async () => {
  const repo = tempRepo();
  const dead = await connect(repo, args);
  const b = await connect(repo, args);
  const dumper = await ledgerDumper(repo);
  try {
    await b.call('graph_batch_mutate', { graph_id: 'plan', operations: [node('a')] });
    // Use keeps it alive: an apply after 1.2 s gives it 2 s from then.
    const t = await dead.call<Begun>('tx_begin', { graph_id: 'plan', owner: 'ghost', ttl_ms: 2000 });
    await sleep(1200);
    const used = await dead.call<Applied>('tx_apply', { tx_id: t.tx_id, operations: [status('a', 'done')] });
    assert.ok(used.expires_at >= t.expires_at + 1000, 'tx_apply gave the transaction ttl_ms more');
    await dead.close(); // the client dies with its transaction open

    await sleep(t.expires_at + 300 - Date.now());
    const stillOpen = await refusedWritingNothing(dumper, b, 'graph_lock', { graph_id: 'plan', holder: 'lead' });
    assert.equal(stillOpen.data?.error, 'E-TX-OPEN', 'past its first lifetime, the refreshed transaction still holds');

    await sleep(used.expires_at + 100 - Date.now());
    for (const tool of ['tx_apply', 'tx_commit'] as const) {
      const expired = await refusedWritingNothing(dumper, b, tool, {
        tx_id: t.tx_id,
        ...(tool === 'tx_apply' ? { operations: [status('a', 'failed')] } : {}),
      });
      assert.equal(expired.data?.error, 'E-TX-EXPIRED', tool);
    }
    const lock = await b.call<{ holder: string }>('graph_lock', { graph_id: 'plan', holder: 'lead' });
    assert.equal(lock.holder, 'lead', 'the lapsed transaction no longer keeps another holder out');
    const graph = await latest(b);
    assert.equal(graph.version, 1);
    assert.equal(graph.graph.nodes[0].attributes.status, undefined, 'nothing of the lapsed transaction was committed');
    const rolled = await b.call<{ expired: boolean }>('tx_rollback', { tx_id: t.tx_id });
    assert.equal(rolled.expired, true);
  } finally {
    await b.close();
    await dumper.close();
  }
});

test('tx_begin replays under its idempotency key; bad input and unknown ids are refused with codes and write nothing', async () => {
  const { a, b, dumper, close } = await twoAgents();
  try {
    const first = await a.call<Begun>('tx_begin', { graph_id: 'plan', idempotency_key: 'k1' });
    const again = await b.call<Begun>('tx_begin', { graph_id: 'plan', idempotency_key: 'k1' });
    assert.equal(again.tx_id, first.tx_id);
    assert.equal(again.idempotent, true);
    const other = await refusedWritingNothing(dumper, b, 'tx_begin', {
      graph_id: 'plan',
      owner: 'x',
      idempotency_key: 'k1',
    });
    assert.equal(other.data?.error, 'E-IDEMPOTENCY-CONFLICT');

    const stale = await refusedWritingNothing(dumper, a, 'tx_begin', { graph_id: 'plan', expected_version: 7 });
    assert.equal(stale.data?.error, 'E-TX-CONFLICT');
    const badId = await refusedWritingNothing(dumper, a, 'tx_begin', { graph_id: 'a b' });
    assert.equal(badId.data?.error, 'E-GRAPH-INVALID-INPUT');
    const unknown = await refusedWritingNothing(dumper, a, 'tx_apply', {
      tx_id: '00000000-0000-4000-8000-000000000000',
      operations: [node('x')],
    });
    assert.equal(unknown.data?.error, 'E-TX-NOT-FOUND');
    const noUuid = await refusedWritingNothing(dumper, a, 'tx_commit', { tx_id: 'nope' });
    assert.equal(noUuid.reason, 'ValidationError');
    const notOp = await refusedWritingNothing(dumper, a, 'tx_apply', {
      tx_id: first.tx_id,
      operations: [{ op: 'explode' }],
    });
    assert.equal(notOp.reason, 'ValidationError');
    await a.call('tx_rollback', { tx_id: first.tx_id });
  } finally {
    await close();
  }
});
