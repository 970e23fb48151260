// graph_patch and graph_batch_mutate under an idempotency_key: the key's record holds what a
// replay needs (the graph id and committed version), not the whole graph, and a replay answers
// exactly what the first call answered — also once the graph moved on — on both engines
// (`--pg`: the server and this test's reader on the workspace's PostgreSQL database).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';
import { ledgerEnv } from '../helpers/testLedger';
import { createServices } from '../../src/app/services';

const nodes = 300;
const node = (i: number) => ({
  op: 'add_node',
  node: { id: `n${i}`, label: `Step ${i} of the plan`, attributes: { status: 'open', owner: 'planner' } },
});
const edge = (i: number) => ({ op: 'add_edge', edge: { from: `n${i - 1}`, to: `n${i}`, label: 'depends_on' } });

/** The answer without the flag that says whether it was replayed (the one field a replay changes). */
const answerOf = (r: Record<string, unknown>): string => JSON.stringify({ ...r, idempotent: undefined });

test(`graph_patch / graph_batch_mutate with an idempotency_key: the record keeps the version, not ${nodes} nodes, and replays the same answer`, async (t) => {
  const repo = tempRepo();
  const c = await connect(repo, ['--enable-orchestrator']);
  let graphChars: number;
  try {
    // The plan: 300 nodes in a chain, written in batches of at most 200 operations (the tool's limit).
    const operations = [
      ...Array.from({ length: nodes }, (_, i) => node(i)),
      ...Array.from({ length: nodes - 1 }, (_, i) => edge(i + 1)),
    ];
    for (let i = 0; i < operations.length; i += 200)
      await c.call('graph_batch_mutate', { graph_id: 'big', operations: operations.slice(i, i + 200) });
    const base = Math.ceil(operations.length / 200);
    const build = {
      graph_id: 'big',
      operations: [node(nodes), edge(nodes)],
      expected_version: base,
      idempotency_key: 'build-1',
      op_id: 'op-build',
    };
    const first = await c.call<
      Record<string, unknown> & { committed_version: number; idempotent: boolean; graph: { nodes: unknown[] } }
    >('graph_batch_mutate', build);
    assert.equal(first.committed_version, base + 1);
    assert.equal(first.idempotent, false);
    assert.equal(first.graph.nodes.length, nodes + 1);
    graphChars = JSON.stringify(first.graph).length;

    const patch = {
      graph_id: 'big',
      patch: [{ op: 'add', path: '/nodes/extra', value: { id: 'extra', label: 'Extra', attributes: {} } }],
      base_version: base + 1,
      idempotency_key: 'patch-1',
      op_id: 'op-patch',
    };
    const patched = await c.call<Record<string, unknown> & { committed_version: number }>('graph_patch', patch);
    assert.equal(patched.committed_version, base + 2);

    // The graph moves on: a replay still answers with the version its call committed.
    await c.call('graph_batch_mutate', {
      graph_id: 'big',
      operations: [{ op: 'set_node_attribute', id: 'n0', key: 'status', value: 'done' }, node(nodes + 1)],
    });
    await c.call('graph_patch', {
      graph_id: 'big',
      patch: [{ op: 'remove', path: '/nodes/extra' }],
      base_version: base + 3,
    });

    const again = await c.call<Record<string, unknown> & { idempotent: boolean }>('graph_batch_mutate', build);
    assert.equal(again.idempotent, true);
    assert.equal(
      answerOf(again),
      answerOf(first),
      'graph_batch_mutate: the replay is the first answer, key order included',
    );
    const patchedAgain = await c.call<Record<string, unknown> & { idempotent: boolean }>('graph_patch', patch);
    assert.equal(patchedAgain.idempotent, true);
    assert.equal(
      answerOf(patchedAgain),
      answerOf(patched),
      'graph_patch: the replay is the first answer, key order included',
    );

    // A call that changed nothing (its version was never stored as its own) replays the same too.
    const none = { graph_id: 'big', operations: [node(nodes)], idempotency_key: 'noop-1', op_id: 'op-noop' };
    const unchanged = await c.call<Record<string, unknown> & { changed: boolean }>('graph_batch_mutate', none);
    assert.equal(unchanged.changed, false);
    assert.equal(answerOf(await c.call('graph_batch_mutate', none)), answerOf(unchanged));
  } finally {
    await c.close();
  }

  Object.assign(process.env, ledgerEnv(repo));
  const services = await createServices({ workspace: repo, dbPath: process.env.AGENT_LEDGER_DB, readonly: true });
  try {
    const rows = await services.engine.read((db) =>
      db.all<{ tool: string; key: string; size: number }>(
        'SELECT tool, key, LENGTH(result) AS size FROM idempotency_keys ORDER BY key',
      ),
    );
    assert.deepEqual(
      rows.map((r) => r.key),
      ['build-1', 'noop-1', 'patch-1'],
    );
    t.diagnostic(
      `kept per key: ${rows.map((r) => `${r.key} ${r.size}`).join(', ')} characters; the graph: ${graphChars}`,
    );
    for (const r of rows)
      assert.ok(
        Number(r.size) < 1_000,
        `${r.tool} ${r.key}: ${r.size} characters kept for a ${graphChars}-character graph`,
      );
  } finally {
    await services.dispose();
  }
});
