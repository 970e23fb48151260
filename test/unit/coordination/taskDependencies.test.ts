// Dependencies of ledger tasks from their workflow's plan graph, on both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphService } from '../../../src/core/coordination/graphService';
import { engineCases } from '../store/engines/engineKit';

for (const engineCase of engineCases) {
  test(`task dependencies on ${engineCase.name}: depends_on edges of wf-<id>, ready when every dependency is done`, { skip: engineCase.skip }, async () => {
    const ledger = await engineCase.ledger();
    try {
      const engine = await ledger.open();
      const ids = await engine.write(async (tx) => {
        const wf = await tx.insert("INSERT INTO workflows (name, created_at, updated_at) VALUES ('plan', 't', 't')");
        const t = async (title: string, status: string) => tx.insert("INSERT INTO tasks (workflow_id, title, status, created_at, updated_at) VALUES (?, ?, ?, 't', 't')", [wf, title, status]);
        return { wf, build: await t('build', 'in_progress'), test: await t('test', 'open'), docs: await t('docs', 'open'), loose: await tx.insert("INSERT INTO tasks (title, status, created_at, updated_at) VALUES ('loose', 'open', 't', 't')") };
      });
      const graphs = new GraphService(engine);
      const graphId = `wf-${ids.wf}`;
      assert.deepEqual(await graphs.blockedTasks(), new Set(), 'no plan change yet: nothing blocked');
      await engine.write((tx) =>
        graphs.batchMutateInTransaction(tx, { graph_id: graphId, operations: [{ op: 'add_edge', edge: { from: `task-${ids.build}`, to: `task-${ids.test}`, label: 'depends_on' } }] }, { correlation: {} }),
      );
      const deps = await graphs.dependencies(ids.test);
      assert.equal(deps.graph_id, graphId);
      assert.deepEqual(deps.depends_on, [{ id: `task-${ids.build}`, status: 'in_progress', done: false }]);
      assert.equal(deps.ready, false);
      assert.deepEqual((await graphs.dependencies(ids.build)).dependents.map((d) => d.id), [`task-${ids.test}`]);
      assert.deepEqual(await graphs.dependencies(ids.loose), { graph_id: null, depends_on: [], dependents: [], ready: true });
      assert.deepEqual(await graphs.blockedTasks(), new Set([ids.test]));

      await engine.write((tx) => tx.run("UPDATE tasks SET status = 'done' WHERE id = ?", [ids.build]));
      assert.equal((await graphs.dependencies(ids.test)).ready, true, 'live task status, not the one in the graph');
      assert.deepEqual(await graphs.blockedTasks(), new Set());
    } finally {
      await ledger.dispose();
    }
  });
}
