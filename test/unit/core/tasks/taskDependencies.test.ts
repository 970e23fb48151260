// Dependencies of ledger tasks from their workflow's plan graph, on both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AsyncSqlReader } from '../../../../src/core/ports/store';
import { GraphService } from '../../../../src/core/coordination/plans/graphService';
import { dependenciesOf } from '../../../../src/core/tasks/taskDependencies';
import { readLatest } from '../../../../src/core/coordination/plans/graphStore';
import { requireStartable } from '../../../../src/core/scheduling/startGates';
import { readTaskAnswer } from '../../../../src/core/tasks/taskAnswer';
import { BoardQueries } from '../../../../src/core/board/boardQueries';
import type { LedgerError } from '../../../../src/core/errors';
import { engineCases } from '../../store/engines/engineKit';

for (const engineCase of engineCases) {
  test(
    `task dependencies on ${engineCase.name}: depends_on edges of wf-<id>, ready when every dependency is done`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const ids = await engine.write(async (tx) => {
          const wf = await tx.insert("INSERT INTO workflows (name, created_at, updated_at) VALUES ('plan', 't', 't')");
          const t = async (title: string, status: string) =>
            tx.insert(
              "INSERT INTO tasks (workflow_id, title, status, created_at, updated_at) VALUES (?, ?, ?, 't', 't')",
              [wf, title, status],
            );
          return {
            wf,
            build: await t('build', 'in_progress'),
            test: await t('test', 'open'),
            docs: await t('docs', 'open'),
            loose: await tx.insert(
              "INSERT INTO tasks (title, status, created_at, updated_at) VALUES ('loose', 'open', 't', 't')",
            ),
          };
        });
        const graphs = new GraphService(engine);
        const graphId = `wf-${ids.wf}`;
        assert.deepEqual(await graphs.blockedTasks(), new Set(), 'no plan change yet: nothing blocked');
        await engine.write((tx) =>
          graphs.batchMutateInTransaction(
            tx,
            {
              graph_id: graphId,
              operations: [
                { op: 'add_edge', edge: { from: `task-${ids.build}`, to: `task-${ids.test}`, label: 'depends_on' } },
              ],
            },
            { correlation: {} },
          ),
        );
        const deps = await graphs.dependencies(ids.test);
        assert.equal(deps.graph_id, graphId);
        assert.deepEqual(deps.depends_on, [{ id: `task-${ids.build}`, status: 'in_progress', done: false }]);
        assert.equal(deps.ready, false);
        assert.deepEqual(
          (await graphs.dependencies(ids.build)).dependents.map((d) => d.id),
          [`task-${ids.test}`],
        );
        assert.deepEqual(await graphs.dependencies(ids.loose), {
          graph_id: null,
          depends_on: [],
          dependents: [],
          ready: true,
        });
        assert.deepEqual(await graphs.blockedTasks(), new Set([ids.test]));

        await engine.write((tx) => tx.run("UPDATE tasks SET status = 'done' WHERE id = ?", [ids.build]));
        assert.equal((await graphs.dependencies(ids.test)).ready, true, 'live task status, not the one in the graph');
        assert.deepEqual(await graphs.blockedTasks(), new Set());
      } finally {
        await ledger.dispose();
      }
    },
  );
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
  test(
    `task dependencies on ${engineCase.name} read the tasks at the ends of the task's edges, never the whole workflow`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const ids = await engine.write(async (tx) => {
          const wf = await tx.insert("INSERT INTO workflows (name, created_at, updated_at) VALUES ('big', 't', 't')");
          const t = async (title: string, status: string) =>
            tx.insert(
              "INSERT INTO tasks (workflow_id, title, status, created_at, updated_at) VALUES (?, ?, ?, 't', 't')",
              [wf, title, status],
            );
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
            {
              graph_id: `wf-${ids.wf}`,
              operations: [first, second].map((from) => ({
                op: 'add_edge' as const,
                edge: { from: `task-${from}`, to: `task-${third}`, label: 'depends_on' },
              })),
            },
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
        assert.ok(
          taskReads.length > 0 && taskReads.every((s) => /id IN \(\?, \?\)/.test(s)),
          `only the two ends are read: ${taskReads.join(' | ')}`,
        );
      } finally {
        await ledger.dispose();
      }
    },
  );
}

for (const engineCase of engineCases) {
  test(
    `a plan graph row written by hand (nodes without attributes or labels, unsorted) is read normalised on ${engineCase.name}: task_get, task_list ready, start_task's gate, the Board`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const ids = await engine.write(async (tx) => {
          const wf = await tx.insert(
            "INSERT INTO workflows (name, created_at, updated_at) VALUES ('by hand', 't', 't')",
          );
          const t = async (title: string, status: string) =>
            tx.insert(
              "INSERT INTO tasks (workflow_id, title, status, created_at, updated_at) VALUES (?, ?, ?, 't', 't')",
              [wf, title, status],
            );
          return {
            wf,
            build: await t('build', 'in_progress'),
            test: await t('test', 'open'),
            ship: await t('ship', 'open'),
          };
        });
        // As an older version or a person would have written it: no attributes, no labels, not sorted, a node that is no node.
        const graph = {
          nodes: [
            { id: `task-${ids.test}` },
            { id: 'design', attributes: { status: 'done' } },
            { id: `task-${ids.ship}`, label: 'Ship' },
            { id: `task-${ids.build}` },
            { label: 'no id' },
          ],
          edges: [
            { from: 'design', to: `task-${ids.ship}` },
            { from: `task-${ids.build}`, to: `task-${ids.test}` },
          ],
        };
        await engine.write(async (tx) => {
          await tx.run('INSERT INTO plan_graphs (graph_id, version, created_at, updated_at) VALUES (?, ?, ?, ?)', [
            `wf-${ids.wf}`,
            1,
            1,
            1,
          ]);
          await tx.run('INSERT INTO plan_graph_versions (graph_id, version, graph, committed_at) VALUES (?, ?, ?, ?)', [
            `wf-${ids.wf}`,
            1,
            JSON.stringify(graph),
            1,
          ]);
        });
        const graphs = new GraphService(engine);
        const deps = await engine.read((db) => readTaskAnswer(db, ids.test));
        assert.deepEqual(
          deps.dependencies.depends_on,
          [{ id: `task-${ids.build}`, status: 'in_progress', done: false }],
          'task_get',
        );
        assert.deepEqual(
          (await graphs.dependencies(ids.ship)).depends_on,
          [{ id: 'design', status: 'done', done: true }],
          "a node that is no task: the graph's status",
        );
        assert.deepEqual(await graphs.blockedTasks(), new Set([ids.test]), 'task_list ready');
        await assert.rejects(
          engine.write((tx) => requireStartable(tx, ids.test)),
          (err: LedgerError) =>
            err.data?.reason === 'dependenciesNotDone' && (err.data.blockedBy as string[])[0] === `task-${ids.build}`,
          'start_task refuses with the coded reason',
        );
        await engine.write((tx) => requireStartable(tx, ids.ship));
        const card = (await new BoardQueries(engine).board()).cards.find((c) => c.id === `task-${ids.test}`);
        assert.deepEqual(card?.blockedBy, [`task-${ids.build}`], 'the Board');
        // The first commit on top of it writes a patch on the normalised graph; the result reads back whole.
        await engine.write((tx) =>
          graphs.batchMutateInTransaction(
            tx,
            {
              graph_id: `wf-${ids.wf}`,
              operations: [
                { op: 'add_edge', edge: { from: `task-${ids.test}`, to: `task-${ids.ship}`, label: 'depends_on' } },
              ],
            },
            { correlation: {} },
          ),
        );
        assert.deepEqual(
          (await graphs.dependencies(ids.ship)).depends_on.map((d) => d.id),
          ['design', `task-${ids.test}`],
        );
        const latest = await engine.read((db) => readLatest(db, `wf-${ids.wf}`));
        assert.deepEqual(
          latest?.graph.nodes.map((n) => [n.id, n.label, n.attributes]),
          [
            ['design', null, { status: 'done' }],
            [`task-${ids.build}`, null, {}],
            [`task-${ids.test}`, null, {}],
            [`task-${ids.ship}`, 'Ship', {}],
          ],
        );
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `the latest plan graph is rebuilt once per commit on ${engineCase.name}: another engine's commit is seen at once, a version number a rolled-back commit used is not served from the cache`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const other = await ledger.open();
        const ids = await engine.write(async (tx) => {
          const wf = await tx.insert(
            "INSERT INTO workflows (name, created_at, updated_at) VALUES ('cached', 't', 't')",
          );
          const t = async (title: string) =>
            tx.insert(
              "INSERT INTO tasks (workflow_id, title, status, created_at, updated_at) VALUES (?, ?, 'open', 't', 't')",
              [wf, title],
            );
          return { wf, a: await t('a'), b: await t('b'), c: await t('c'), d: await t('d') };
        });
        const graphId = `wf-${ids.wf}`;
        const edge = (from: number, to: number) => ({
          op: 'add_edge' as const,
          edge: { from: `task-${from}`, to: `task-${to}`, label: 'depends_on' },
        });
        await engine.write((tx) =>
          new GraphService(engine).batchMutateInTransaction(
            tx,
            { graph_id: graphId, operations: [edge(ids.a, ids.c)] },
            { correlation: {} },
          ),
        );
        const rebuilds = (statements: string[]) =>
          statements.filter((s) => /SELECT version, graph, patch/.test(s)).length;
        const read = async (taskId: number) => {
          const statements: string[] = [];
          const deps = await engine.read((db) => dependenciesOf(recording(db, statements), taskId));
          return { ids: deps.depends_on.map((d) => d.id), rebuilt: rebuilds(statements) };
        };
        await read(ids.c);
        assert.deepEqual(await read(ids.c), { ids: [`task-${ids.a}`], rebuilt: 0 }, 'no commit since: not rebuilt');

        // Another process's commit (another engine on the same ledger): seen at the next read.
        await other.write((tx) =>
          new GraphService(other).batchMutateInTransaction(
            tx,
            { graph_id: graphId, operations: [edge(ids.b, ids.c)] },
            { correlation: {} },
          ),
        );
        assert.deepEqual(await read(ids.c), { ids: [`task-${ids.a}`, `task-${ids.b}`], rebuilt: 1 });
        assert.deepEqual(await read(ids.c), { ids: [`task-${ids.a}`, `task-${ids.b}`], rebuilt: 0 });

        // A commit read inside its transaction, then rolled back: the next commit takes the same version number.
        const undone = new Error('rolled back');
        await assert.rejects(
          engine.write(async (tx) => {
            await new GraphService(engine).batchMutateInTransaction(
              tx,
              { graph_id: graphId, operations: [edge(ids.b, ids.a)] },
              { correlation: {} },
            );
            assert.deepEqual(
              (await dependenciesOf(tx, ids.a)).depends_on.map((d) => d.id),
              [`task-${ids.b}`],
            );
            throw undone;
          }),
          (err) => err === undone,
        );
        await other.write((tx) =>
          new GraphService(other).batchMutateInTransaction(
            tx,
            { graph_id: graphId, operations: [edge(ids.d, ids.a)] },
            { correlation: {} },
          ),
        );
        assert.deepEqual(
          await read(ids.a),
          { ids: [`task-${ids.d}`], rebuilt: 1 },
          'the same version number, another commit: rebuilt (the rolled-back edge is gone)',
        );
      } finally {
        await ledger.dispose();
      }
    },
  );
}
