// Plan-graph versions stored as checkpoints and patches (graphHistory.ts, graphStore.ts, migration
// v15): every version reads back exactly as it was committed, on both engines, including the
// versions of a ledger written before v15 once its history is converted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyGraphPatch, diffGraphs } from '../../../../../src/core/coordination/plans/graphDiff';
import type { JsonPatchOperation } from '../../../../../src/core/coordination/plans/graphDiff';
import {
  CHECKPOINT_EVERY,
  replayVersion,
  storedPatch,
  versionPatch,
} from '../../../../../src/core/coordination/plans/graphHistory';
import { GraphService } from '../../../../../src/core/coordination/plans/graphService';
import { normaliseGraph } from '../../../../../src/core/coordination/plans/planGraph';
import type { PlanGraph } from '../../../../../src/core/coordination/plans/planGraph';
import type { LedgerEngine } from '../../../../../src/core/ports/store';
import { engineCases } from '../../../store/engines/engineKit';
import { LedgerError } from '../../../../../src/core/errors';
import { isCoordinationError } from '../../../../../src/core/coordination/coordinationErrors';
import { randomDag, randomEdit } from './graphFixtures';
import { seeded } from './random';

const content = (g: PlanGraph) => ({ ...g, graph_id: 'x', graph_version: 0 });

test('a stored patch turns each version into the next: random edits, odd ids, whole sources added and removed', () => {
  const r = seeded(11);
  let base = randomDag(r, 60, 2);
  const first = base;
  const chain: JsonPatchOperation[][] = [];
  for (let i = 0; i < 300; i++) {
    let next = randomEdit(r, base, 1 + r.int(12));
    if (i % 50 === 7)
      next = normaliseGraph(
        {
          ...next,
          name: 'renamed',
          nodes: [
            ...next.nodes,
            { id: 'a/b~c', label: 'x', attributes: {} },
            { id: `zz${i}`, label: null, attributes: {} },
          ],
          edges: [...next.edges, { from: 'a/b~c', to: `zz${i}`, label: null, attributes: {} }],
        },
        next,
      );
    if (i % 50 === 8)
      next = normaliseGraph(
        {
          ...next,
          nodes: next.nodes.filter((n) => n.id !== 'a/b~c'),
          edges: next.edges.filter((e) => e.from !== 'a/b~c'),
        },
        next,
      );
    const patch = versionPatch(base, next);
    assert.deepEqual(
      content(replayVersion(base, [patch], { graph_id: 'x', graph_version: 0 })),
      content(next),
      `edit ${i}`,
    );
    assert.deepEqual(
      content(applyGraphPatch(base, patch)),
      content(next),
      `edit ${i}: the stored patch is RFC 6902 that fast-json-patch applies the same way`,
    );
    chain.push(patch);
    if (i % 10 === 9)
      assert.deepEqual(
        content(replayVersion(first, chain, { graph_id: 'x', graph_version: 0 })),
        content(next),
        `the first graph and the ${chain.length} patches after it`,
      );
    assert.ok(
      patch.length <= diffGraphs(base, next).operations.length + 2,
      'no more operations than the fine-grained diff (plus whole replaced elements)',
    );
    base = next;
  }
  assert.deepEqual(versionPatch(base, base), [], 'no change, no operation');
  const odd = normaliseGraph(
    { ...base, nodes: [...base.nodes, { id: '__proto__', label: null, attributes: {} }] },
    base,
  );
  assert.equal(storedPatch(base, odd), null, 'a path naming __proto__ is never stored: that version is kept whole');
  const later = normaliseGraph({ ...odd, name: 'later' }, odd);
  assert.deepEqual(
    content(replayVersion(odd, [storedPatch(odd, later) ?? []], { graph_id: 'x', graph_version: 0 })),
    content(later),
    'a checkpoint holding __proto__ replays as a plain id',
  );
});

/** Commits `target` as the graph's next version with graph_patch (batch_mutate for the first). */
async function commit(
  engine: LedgerEngine,
  graphs: GraphService,
  graphId: string,
  target: PlanGraph,
  current: PlanGraph | null,
): Promise<PlanGraph> {
  return engine.write(async (tx) => {
    if (current === null) {
      const ops = [
        ...target.nodes.map((n) => ({
          op: 'add_node' as const,
          node: { id: n.id, label: n.label ?? undefined, attributes: n.attributes },
        })),
        ...target.edges.map((e) => ({
          op: 'add_edge' as const,
          edge: { from: e.from, to: e.to, label: e.label ?? undefined, attributes: e.attributes },
        })),
      ];
      return (
        await graphs.batchMutateInTransaction(tx, { graph_id: graphId, operations: ops as never }, { correlation: {} })
      ).graph;
    }
    return (
      await graphs.patchInTransaction(
        tx,
        { graph_id: graphId, patch: diffGraphs(current, target).operations },
        { correlation: {} },
      )
    ).graph;
  });
}

interface Row {
  version: number;
  graph: string;
  patch: string | null;
  checkpoint: number | null;
}

const rowsOf = (engine: LedgerEngine, graphId: string) =>
  engine.read((db) =>
    db.all<Row>(
      'SELECT version, graph, patch, checkpoint FROM plan_graph_versions WHERE graph_id = ? ORDER BY version',
      [graphId],
    ),
  );

for (const engineCase of engineCases) {
  test(
    `plan-graph versions on ${engineCase.name}: a commit writes a patch, a checkpoint every ${CHECKPOINT_EVERY} versions, every version reads back as committed`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const graphs = new GraphService(engine);
        const r = seeded(5);
        const committed: PlanGraph[] = [];
        let current: PlanGraph | null = null;
        let target = randomDag(r, 120, 2);
        while (committed.length < 2 * CHECKPOINT_EVERY + 6) {
          const before: PlanGraph | null = current;
          current = await commit(engine, graphs, 'plan', target, current);
          if (before === null || current.graph_version > before.graph_version) committed.push(current);
          target = randomEdit(r, current, 1 + r.int(3));
        }
        const rows = await rowsOf(engine, 'plan');
        assert.equal(rows.length, committed.length);
        const checkpoints = rows.filter((row) => row.patch === null).map((row) => Number(row.version));
        assert.deepEqual(
          checkpoints,
          [1, CHECKPOINT_EVERY + 2, 2 * CHECKPOINT_EVERY + 3],
          'a whole graph, then one after every 32 patches',
        );
        for (const row of rows) {
          if (row.patch === null) assert.equal(Number(row.checkpoint), Number(row.version));
          else {
            assert.equal(row.graph, '', 'a patch row does not hold the graph');
            assert.ok(
              row.patch.length * 20 < rows[0].graph.length,
              `version ${row.version}: the patch (${row.patch.length} B) is a small part of the graph (${rows[0].graph.length} B)`,
            );
            assert.ok(Number(row.version) - Number(row.checkpoint) <= CHECKPOINT_EVERY, 'at most N patches to replay');
          }
        }
        for (const g of committed) {
          assert.deepEqual((await graphs.version('plan', g.graph_version)).graph, g, `version ${g.graph_version}`);
        }
        assert.deepEqual((await graphs.latest('plan')).graph, committed[committed.length - 1]);
        const diff = await graphs.diff('plan', { version: 3 }, { latest: true });
        assert.deepEqual(
          diff.operations,
          diffGraphs(committed[2], committed[committed.length - 1]).operations,
          'graph_diff between stored versions is the diff of the graphs',
        );
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `plan-graph versions on ${engineCase.name}: a graph written before v15 reads as it was, and its first write converts its history into patches`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const graphs = new GraphService(engine);
        const r = seeded(9);
        // What a ledger before v15 holds: every version a whole graph, no checkpoint, not compacted.
        const legacy: PlanGraph[] = [];
        let g = { ...randomDag(r, 80, 2, 'old'), graph_version: 1 };
        for (let v = 1; v <= 40; v++) {
          legacy.push(g);
          g = { ...randomEdit(r, g, 2 + r.int(4)), graph_version: v + 1 };
        }
        await engine.write(async (tx) => {
          await tx.run('INSERT INTO plan_graphs (graph_id, version, created_at, updated_at) VALUES (?, ?, ?, ?)', [
            'old',
            40,
            1,
            40,
          ]);
          for (const v of legacy) {
            await tx.run(
              'INSERT INTO plan_graph_versions (graph_id, version, graph, committed_at, base_version, tx_id) VALUES (?, ?, ?, ?, ?, ?)',
              [
                'old',
                v.graph_version,
                JSON.stringify(v),
                v.graph_version,
                v.graph_version - 1,
                `tx-${v.graph_version}`,
              ],
            );
          }
        });
        for (const v of legacy)
          assert.deepEqual(
            (await graphs.version('old', v.graph_version)).graph,
            v,
            `before conversion, version ${v.graph_version}`,
          );
        const before = (await rowsOf(engine, 'old')).reduce((n, row) => n + row.graph.length, 0);

        const next = await commit(
          engine,
          graphs,
          'old',
          randomEdit(r, legacy[legacy.length - 1], 2),
          legacy[legacy.length - 1],
        );
        assert.equal(next.graph_version, 41);
        const rows = await rowsOf(engine, 'old');
        assert.ok(
          rows.every((row) => row.checkpoint !== null),
          'every version converted',
        );
        assert.deepEqual(
          rows.filter((row) => row.patch === null).map((row) => Number(row.version)),
          [1, CHECKPOINT_EVERY + 2],
          'checkpoints where new versions would have them',
        );
        const after = rows.reduce((n, row) => n + row.graph.length + (row.patch?.length ?? 0), 0);
        assert.ok(after * 8 < before, `stored bytes shrink (${before} → ${after})`);
        for (const v of [...legacy, next])
          assert.deepEqual(
            (await graphs.version('old', v.graph_version)).graph,
            v,
            `after conversion, version ${v.graph_version}`,
          );
        const compacted = await engine.read((db) =>
          db.get<{ compacted: number }>('SELECT compacted FROM plan_graphs WHERE graph_id = ?', ['old']),
        );
        assert.equal(Number(compacted?.compacted), 1);
      } finally {
        await ledger.dispose();
      }
    },
  );
}

for (const engineCase of engineCases) {
  test(
    `plan-graph bounds on ${engineCase.name}: the newest versions are kept with the chain they read from, older ones go; a version too large is refused`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const kept = 10;
        const graphs = new GraphService(engine, Date.now, { graphVersionsKept: kept, graphVersionBytes: 1_000_000 });
        const r = seeded(11);
        const committed: PlanGraph[] = [];
        let current: PlanGraph | null = null;
        let target = randomDag(r, 40, 2);
        while (committed.length < 3 * CHECKPOINT_EVERY) {
          const before: PlanGraph | null = current;
          current = await commit(engine, graphs, 'kept', target, current);
          if (before === null || current.graph_version > before.graph_version) committed.push(current);
          target = randomEdit(r, current, 1 + r.int(3));
        }
        const head = committed[committed.length - 1].graph_version;
        const rows = await rowsOf(engine, 'kept');
        const oldest = Number(rows[0].version);
        assert.ok(rows.length <= kept + CHECKPOINT_EVERY, `${rows.length} rows kept of ${committed.length}`);
        assert.equal(rows[0].patch, null, 'the oldest row kept is a checkpoint');
        assert.ok(oldest <= head - kept + 1);
        for (const g of committed.filter((c) => c.graph_version >= oldest))
          assert.deepEqual((await graphs.version('kept', g.graph_version)).graph, g, `version ${g.graph_version}`);
        await assert.rejects(
          graphs.version('kept', oldest - 1),
          (e) => isCoordinationError(e, 'E-RES-NOT-FOUND') && /is no longer kept/.test((e as Error).message),
        );

        const small = new GraphService(engine, Date.now, { graphVersionsKept: kept, graphVersionBytes: 2_000 });
        const ops = Array.from({ length: 60 }, (_, i) => ({
          op: 'add_node' as const,
          node: { id: `n${i}`, label: `node ${i}` },
        }));
        await assert.rejects(
          engine.write((tx) =>
            small.batchMutateInTransaction(tx, { graph_id: 'small', operations: ops }, { correlation: {} }),
          ),
          (e) => LedgerError.is(e, 'QuotaExceeded') && e.data?.limit === 'graphVersionBytes',
        );
        assert.deepEqual(await rowsOf(engine, 'small'), [], 'the refused version wrote nothing');
      } finally {
        await ledger.dispose();
      }
    },
  );
}
