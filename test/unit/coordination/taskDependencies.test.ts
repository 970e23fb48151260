// Dependencies of ledger tasks from their workflow's plan graph, on both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AsyncSqlReader } from '../../../src/core/ports';
import { GraphService } from '../../../src/core/coordination/graphService';
import { dependenciesOf } from '../../../src/core/coordination/taskDependencies';
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

/** A reader that records every statement it is asked. */
function recording(db: AsyncSqlReader, statements: string[]): AsyncSqlReader {
  return new Proxy(db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (typeof args[0] === 'string') statements.push(args[0].replace(/\s+/g, ' '));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

for (const engineCase of engineCases) {
  test(`task dependencies on ${engineCase.name} read the tasks at the ends of the task's edges, never the whole workflow`, { skip: engineCase.skip }, async () => {
    const ledger = await engineCase.ledger();
    try {
      const engine = await ledger.open();
      const ids = await engine.write(async (tx) => {
        const wf = await tx.insert("INSERT INTO workflows (name, created_at, updated_at) VALUES ('big', 't', 't')");
        const t = async (title: string, status: string) => tx.insert("INSERT INTO tasks (workflow_id, title, status, created_at, updated_at) VALUES (?, ?, ?, 't', 't')", [wf, title, status]);
        const all: number[] = [];
        for (let i = 0; i < 40; i++) all.push(await t(`task ${i}`, i === 1 ? 'done' : 'open'));
        return { wf, all };
      });
      const [first, second, third] = ids.all;
      const statements: string[] = [];
      const unchanged = await engine.read((db) => dependenciesOf(recording(db, statements), third));
      assert.deepEqual(unchanged, { graph_id: `wf-${ids.wf}`, depends_on: [], dependents: [], ready: true });
      // Other tasks than the one asked about (its own row says which workflow it is in).
      const otherTasks = (sql: string) => /FROM tasks/i.test(sql) && !/WHERE id = \?$/.test(sql);
      assert.deepEqual(statements.filter(otherTasks), [], 'a plan never changed: no other task read');

      const graphs = new GraphService(engine);
      await engine.write((tx) =>
        graphs.batchMutateInTransaction(
          tx,
          { graph_id: `wf-${ids.wf}`, operations: [first, second].map((from) => ({ op: 'add_edge' as const, edge: { from: `task-${from}`, to: `task-${third}`, label: 'depends_on' } })) },
          { correlation: {} },
        ),
      );
      statements.length = 0;
      const deps = await engine.read((db) => dependenciesOf(recording(db, statements), third));
      assert.deepEqual(
        deps.depends_on.map((d) => [d.id, d.status]),
        [
          [`task-${first}`, 'open'],
          [`task-${second}`, 'done'],
        ],
      );
      const taskReads = statements.filter(otherTasks);
      assert.ok(taskReads.length > 0 && taskReads.every((s) => /id IN \(\?, \?\)/.test(s)), `only the two ends are read: ${taskReads.join(' | ')}`);
    } finally {
      await ledger.dispose();
    }
  });
}
