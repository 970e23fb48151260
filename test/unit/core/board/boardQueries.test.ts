// The Board's and the plan graph's read models on both engines: columns, agent and client,
// review requests and waiting pipelines in "needs a person", dependencies from the plan graph.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoardQueries } from '../../../../src/core/board/boardQueries';
import type { LedgerEngine } from '../../../../src/core/ports/store';
import { workflowRunId } from '../../../../src/core/events/correlation';
import { normaliseGraph } from '../../../../src/core/coordination/plans/planGraph';
import { GraphService } from '../../../../src/core/coordination/plans/graphService';
import { engineCases } from '../../store/engines/engineKit';

const at = (n: number): string => `2026-11-23T10:00:${String(n).padStart(2, '0')}.000Z`;

async function addTask(
  engine: LedgerEngine,
  t: {
    workflowId?: number;
    title: string;
    status: string;
    result?: string;
    assignee?: string;
    outcome?: object;
    milestone?: string;
    n: number;
  },
): Promise<number> {
  return engine.write((tx) =>
    tx.insert(
      'INSERT INTO tasks (workflow_id, title, status, result, assignee, outcome, last_milestone, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        t.workflowId ?? null,
        t.title,
        t.status,
        t.result ?? null,
        t.assignee ?? null,
        t.outcome ? JSON.stringify(t.outcome) : null,
        t.milestone ?? null,
        at(t.n),
        at(t.n),
      ],
    ),
  );
}

async function seed(engine: LedgerEngine): Promise<Record<string, number>> {
  const wf = await engine.write((tx) =>
    tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', ['Checkout', at(0), at(0)]),
  );
  const design = await addTask(engine, { workflowId: wf, title: 'Design', status: 'done', result: 'success', n: 1 });
  const build = await addTask(engine, {
    workflowId: wf,
    title: 'Build',
    status: 'in_progress',
    milestone: 'Compiling',
    n: 2,
  });
  const test = await addTask(engine, { workflowId: wf, title: 'Test', status: 'open', n: 3 });
  const docs = await addTask(engine, { workflowId: wf, title: 'Docs', status: 'open', assignee: 'writer', n: 4 });
  const review = await addTask(engine, {
    title: 'Security review',
    status: 'done',
    result: 'partial_success',
    outcome: { summary: 's', manual_review_needed: true, manual_review_reason: 'touches auth' },
    n: 5,
  });
  const asks = await addTask(engine, { title: 'Migrate', status: 'in_progress', n: 6 });
  const failed = await addTask(engine, { title: 'Flaky', status: 'failed', n: 7 });
  const cancelled = await addTask(engine, { title: 'Dropped', status: 'cancelled', n: 8 });
  await engine.write(async (tx) => {
    await tx.insert(
      'INSERT INTO sessions (task_id, agent, client, origin, status, started_at) VALUES (?, ?, ?, ?, ?, ?)',
      [build, 'old', 'codex', 'mcp', 'ended', at(2)],
    );
    await tx.insert(
      'INSERT INTO sessions (task_id, agent, client, origin, status, started_at) VALUES (?, ?, ?, ?, ?, ?)',
      [build, 'coder', 'claude', 'mcp', 'running', at(3)],
    );
    await tx.insert(
      'INSERT INTO issues (task_id, type, description, resolution, requires_human_review, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [asks, 'other', 'Drop the old column?', 'asked', 1, at(6)],
    );
    await tx.run('INSERT INTO agents (name, file, client, definition, indexed_at) VALUES (?, ?, ?, ?, ?)', [
      'writer',
      'writer.md',
      'gemini',
      '{}',
      at(0),
    ]);
    await tx.insert(
      `INSERT INTO pipelines (workspace, spec_name, title, workflow_id, source_type, effort, flow_template, status, current_phase, waiting, rev, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        '.specs/20261123-retries',
        'retries',
        'Add retries',
        wf,
        'text',
        'M',
        'standard',
        'awaiting_human',
        'checkpoint-a',
        JSON.stringify({
          kind: 'checkpoint',
          name: 'checkpoint-a',
          phase: 'checkpoint-a',
          options: ['approve'],
          task_id: null,
          requested_at: at(9),
        }),
        1,
        at(9),
        at(9),
      ],
    );
    // The plan graph: Build and Docs need Design; Test needs Build (not done yet).
    // Stored as the graph tools store one (normalised: every node and edge with its label and attributes).
    const graph = normaliseGraph({
      graph_id: workflowRunId(wf),
      nodes: [design, build, test, docs].map((id) => ({ id: `task-${id}` })),
      edges: [
        { from: `task-${design}`, to: `task-${build}` },
        { from: `task-${build}`, to: `task-${test}` },
        { from: `task-${design}`, to: `task-${docs}` },
        { from: 'not-a-task', to: `task-${docs}` },
      ],
    });
    await tx.run('INSERT INTO plan_graphs (graph_id, version, created_at, updated_at) VALUES (?, ?, ?, ?)', [
      workflowRunId(wf),
      2,
      1,
      2,
    ]);
    await tx.run('INSERT INTO plan_graph_versions (graph_id, version, graph, committed_at) VALUES (?, ?, ?, ?)', [
      workflowRunId(wf),
      1,
      JSON.stringify({ nodes: [], edges: [{ from: `task-${docs}`, to: `task-${design}` }] }),
      1,
    ]);
    await tx.run('INSERT INTO plan_graph_versions (graph_id, version, graph, committed_at) VALUES (?, ?, ?, ?)', [
      workflowRunId(wf),
      2,
      JSON.stringify(graph),
      2,
    ]);
  });
  return { wf, design, build, test, docs, review, asks, failed, cancelled };
}

for (const engineCase of engineCases) {
  test(
    `board and plan graph on ${engineCase.name}: the dependencies the graph tools write (wf-<id>), the one name every reader reads`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const wf = await engine.write((tx) =>
          tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', ['Plan', at(0), at(0)]),
        );
        const build = await addTask(engine, { workflowId: wf, title: 'Build', status: 'in_progress', n: 1 });
        const test = await addTask(engine, { workflowId: wf, title: 'Test', status: 'open', n: 2 });
        const docs = await addTask(engine, { workflowId: wf, title: 'Docs', status: 'open', n: 3 });
        // graph_batch_mutate's own service, on the workflow's plan graph as task_get and the runner read it.
        const graphs = new GraphService(engine);
        await engine.write((tx) =>
          graphs.batchMutateInTransaction(
            tx,
            {
              graph_id: `wf-${wf}`,
              operations: [
                { op: 'add_edge', edge: { from: `task-${build}`, to: `task-${test}`, label: 'depends_on' } },
              ],
            },
            { correlation: {} },
          ),
        );
        assert.equal(workflowRunId(wf), `wf-${wf}`, "the workflow's plan graph has one name");
        assert.deepEqual(
          (await graphs.dependencies(test)).depends_on.map((d) => d.id),
          [`task-${build}`],
          'task_get sees the edge',
        );
        const queries = new BoardQueries(engine);
        const card = (await queries.board()).cards.find((c) => c.id === `task-${test}`);
        assert.deepEqual(card?.blockedBy, [`task-${build}`], 'the Board sees the same edge');
        assert.deepEqual(
          (await queries.planGraph(wf)).edges.map((e) => `${e.from}>${e.to}`),
          [`task-${build}>task-${test}`],
        );

        // `workflow-<id>`, the name the Board alone read for a while (nothing ever wrote it): not read, one name for every reader.
        await engine.write(async (tx) => {
          await tx.run('INSERT INTO plan_graphs (graph_id, version, created_at, updated_at) VALUES (?, ?, ?, ?)', [
            `workflow-${wf}`,
            1,
            1,
            1,
          ]);
          await tx.run('INSERT INTO plan_graph_versions (graph_id, version, graph, committed_at) VALUES (?, ?, ?, ?)', [
            `workflow-${wf}`,
            1,
            JSON.stringify({ nodes: [], edges: [{ from: `task-${build}`, to: `task-${docs}` }] }),
            1,
          ]);
        });
        const board = (await queries.board()).cards;
        assert.deepEqual(
          board.find((c) => c.id === `task-${docs}`)?.blockedBy,
          [],
          'the Board reads wf-<id> only, as task_get does',
        );
        assert.deepEqual((await graphs.dependencies(docs)).depends_on, []);
        assert.deepEqual(board.find((c) => c.id === `task-${test}`)?.blockedBy, [`task-${build}`]);
        assert.deepEqual(
          (await queries.planGraph(wf)).edges.map((e) => `${e.from}>${e.to}`),
          [`task-${build}>task-${test}`],
        );
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `board read model on ${engineCase.name}: every task in its column, needs-a-person gathered, agent and client`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const ids = await seed(engine);
        const { cards, agents } = await new BoardQueries(await ledger.open()).board();
        const column = (id: string): string | undefined => cards.find((c) => c.id === id)?.column;
        assert.equal(column(`task-${ids.design}`), 'done');
        assert.equal(column(`task-${ids.build}`), 'in_progress');
        assert.equal(column(`task-${ids.test}`), 'open', 'its dependency is not done');
        assert.deepEqual(cards.find((c) => c.id === `task-${ids.test}`)?.blockedBy, [`task-${ids.build}`]);
        assert.equal(column(`task-${ids.docs}`), 'ready', 'its dependency is done (the latest graph version counts)');
        assert.equal(column(`task-${ids.review}`), 'needs_person');
        assert.equal(cards.find((c) => c.id === `task-${ids.review}`)?.reason, 'touches auth');
        assert.equal(column(`task-${ids.asks}`), 'needs_person');
        assert.match(cards.find((c) => c.id === `task-${ids.asks}`)?.reason ?? '', /Drop the old column\?/);
        assert.equal(column(`task-${ids.failed}`), 'failed');
        assert.equal(column(`task-${ids.cancelled}`), 'failed');
        const pipeline = cards.find((c) => c.kind === 'checkpoint');
        assert.equal(pipeline?.column, 'needs_person');
        assert.equal(pipeline?.pipeline, '.specs/20261123-retries');
        assert.equal(pipeline?.workflow, 'Checkout');
        const build = cards.find((c) => c.id === `task-${ids.build}`)!;
        assert.deepEqual(
          [build.agent, build.client, build.lastMilestone, build.cost],
          ['coder', 'claude', 'Compiling', null],
          'the latest session',
        );
        const docs = cards.find((c) => c.id === `task-${ids.docs}`)!;
        assert.deepEqual([docs.agent, docs.client], ['writer', 'gemini'], "the assignee's definition gives the client");
        assert.deepEqual(agents, [{ name: 'writer', client: 'gemini' }]);
        assert.equal(cards.length, 9);
        assert.deepEqual(
          cards.slice(0, 2).map((c) => c.id),
          [pipeline?.id, `task-${ids.cancelled}`],
          'most recently updated first',
        );
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `plan graph read model on ${engineCase.name}: the workflow's tasks as nodes, its dependencies as edges, laid out`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const ids = await seed(engine);
        const graph = await new BoardQueries(engine).planGraph(ids.wf);
        assert.equal(graph.name, 'Checkout');
        assert.deepEqual(
          graph.nodes.map((n) => [n.id, n.status]),
          [
            [`task-${ids.design}`, 'done'],
            [`task-${ids.build}`, 'in_progress'],
            [`task-${ids.test}`, 'open'],
            [`task-${ids.docs}`, 'open'],
          ],
        );
        assert.equal(graph.nodes[1].agent, 'coder');
        assert.deepEqual(
          graph.edges.map((e) => `${e.from}>${e.to}`).sort(),
          [
            `task-${ids.build}>task-${ids.test}`,
            `task-${ids.design}>task-${ids.build}`,
            `task-${ids.design}>task-${ids.docs}`,
          ].sort(),
        );
        const y = new Map(graph.nodes.map((n) => [n.id, n.y]));
        for (const e of graph.edges) assert.ok(y.get(e.from)! < y.get(e.to)!, `${e.from} is drawn above ${e.to}`);
        const queries = new BoardQueries(engine);
        const before = await queries.planGraph(ids.wf);
        await engine.write((tx) =>
          tx.run("UPDATE tasks SET status = 'done', result = 'success' WHERE id = ?", [ids.build]),
        );
        const after = await queries.planGraph(ids.wf);
        assert.equal(after.nodes[1].status, 'done', 'live state');
        assert.equal(after.nodes[2].why, null);
        await engine.write((tx) =>
          tx.run('UPDATE tasks SET waiting = ? WHERE id = ?', [
            JSON.stringify({ reason: 'conflict', detail: 'overlaps task-1', blockedBy: ['task-1'], since: 'x' }),
            ids.test,
          ]),
        );
        await engine.write((tx) => tx.run("UPDATE tasks SET held_by = 'ada', held_at = 'x' WHERE id = ?", [ids.docs]));
        const why = await queries.planGraph(ids.wf);
        assert.deepEqual(why.nodes[2].why, { kind: 'waiting', text: 'overlaps task-1' }, 'the runner’s reason');
        assert.deepEqual(why.nodes[3].why, { kind: 'held', text: 'held — stopped by ada' }, 'the hold');
        assert.deepEqual(
          after.nodes.map((n) => [n.x, n.y]),
          before.nodes.map((n) => [n.x, n.y]),
          'same shape, same layout',
        );
        assert.ok(
          after.edges.every((e) => e.kind === 'dependency'),
          'no sub-tasks yet: dependency edges only',
        );
        // A sub-task of Build: an edge from its parent, of its own kind, laid out anew (a new shape).
        await engine.write((tx) => tx.run('UPDATE tasks SET parent_id = ? WHERE id = ?', [ids.build, ids.docs]));
        const withParent = await queries.planGraph(ids.wf);
        const parentEdges = withParent.edges.filter((e) => e.kind === 'parent');
        assert.deepEqual(
          parentEdges.map((e) => `${e.from}>${e.to}`),
          [`task-${ids.build}>task-${ids.docs}`],
        );
        const at = new Map(withParent.nodes.map((n) => [n.id, n.y]));
        assert.ok(at.get(`task-${ids.build}`)! < at.get(`task-${ids.docs}`)!, 'the sub-task is drawn under its parent');
        assert.ok(parentEdges[0].points.length >= 2, 'the parent edge is routed');
        await assert.rejects(queries.planGraph(999), /not found/);
      } finally {
        await ledger.dispose();
      }
    },
  );
}
