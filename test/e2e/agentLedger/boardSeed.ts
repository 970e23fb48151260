// The ledger the Board journey opens: a workflow whose plan graph says which task waits for which,
// tasks in every column, and (for the first-paint figure) 2,000 more tasks in one transaction.
// Written from the test process through the services' asynchronous port: for the editor, another
// process writing the shared store.
import type { LedgerEngine } from '../../../src/core/ports/store';
import { workflowRunId } from '../../../src/core/events/correlation';
import { normaliseGraph } from '../../../src/core/coordination/plans/planGraph';

export interface BoardSeed {
  workflowId: number;
  design: number;
  build: number;
  test: number;
  docs: number;
  review: number;
  stale: number;
}

const at = (s: number): string => new Date(Date.UTC(2026, 10, 23, 10, 0, s)).toISOString();

function addTask(
  engine: LedgerEngine,
  t: {
    workflowId: number | null;
    title: string;
    status: string;
    result?: string;
    assignee?: string;
    milestone?: string;
    outcome?: object;
    areas?: string[];
    s: number;
  },
): Promise<number> {
  return engine.write((tx) =>
    tx.insert(
      'INSERT INTO tasks (workflow_id, title, status, result, assignee, last_milestone, outcome, areas, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        t.workflowId,
        t.title,
        t.status,
        t.result ?? null,
        t.assignee ?? null,
        t.milestone ?? null,
        t.outcome ? JSON.stringify(t.outcome) : null,
        JSON.stringify(t.areas ?? []),
        at(t.s),
        at(t.s),
      ],
    ),
  );
}

export async function seedBoard(engine: LedgerEngine): Promise<BoardSeed> {
  const workflowId = await engine.write((tx) =>
    tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', ['Checkout', at(0), at(0)]),
  );
  const design = await addTask(engine, {
    workflowId,
    title: 'Design the checkout',
    status: 'done',
    result: 'success',
    s: 1,
  });
  const build = await addTask(engine, {
    workflowId,
    title: 'Build the checkout',
    status: 'in_progress',
    milestone: 'Compiling the cart',
    areas: ['src/**'],
    s: 2,
  });
  const test = await addTask(engine, { workflowId, title: 'Test the checkout', status: 'open', s: 3 });
  const docs = await addTask(engine, {
    workflowId,
    title: 'Document the checkout',
    status: 'open',
    assignee: 'writer',
    s: 4,
  });
  const review = await addTask(engine, {
    workflowId: null,
    title: 'Audit the payment keys',
    status: 'done',
    result: 'partial_success',
    outcome: { summary: 'Audited', manual_review_needed: true, manual_review_reason: 'touches the payment keys' },
    s: 5,
  });
  const stale = await addTask(engine, { workflowId: null, title: 'Try the old SDK', status: 'open', s: 6 });
  await engine.write(async (tx) => {
    await tx.insert(
      'INSERT INTO sessions (task_id, agent, client, origin, status, started_at) VALUES (?, ?, ?, ?, ?, ?)',
      [build, 'coder', 'claude', 'worker', 'running', at(2)],
    );
    // Two runs reported what they cost (the card shows the sum), and the coder handed over to a reviewer who has not accepted yet.
    for (const cost of [0.0421, 0.01]) {
      await tx.insert(
        "INSERT INTO execution_logs (task_id, agent, status, started_at, cost_usd) VALUES (?, 'coder', 'completed', ?, ?)",
        [build, at(2), cost],
      );
    }
    await tx.insert(
      "INSERT INTO handoffs (task_id, from_agent, to_agent, summary, status, created_at) VALUES (?, 'coder', 'reviewer', 'Cart compiles; review it', 'pending', ?)",
      [build, at(2)],
    );
    // The reviewer is an agent of a project, so the handoff waits for it, not for a person (the card stays in progress).
    const project = await tx.insert(
      "INSERT INTO projects (name, working_directory, created_at, updated_at) VALUES ('Checkout', '.', ?, ?)",
      [at(0), at(0)],
    );
    await tx.run("INSERT INTO project_agents (project_id, agent, assigned_at) VALUES (?, 'reviewer', ?)", [
      project,
      at(0),
    ]);
    // Stored as the graph tools store one (normalised: every node and edge with its label and attributes).
    const graph = normaliseGraph({
      graph_id: workflowRunId(workflowId),
      nodes: [design, build, test, docs].map((id) => ({ id: `task-${id}` })),
      edges: [
        { from: `task-${design}`, to: `task-${build}` },
        { from: `task-${build}`, to: `task-${test}` },
        { from: `task-${design}`, to: `task-${docs}` },
      ],
    });
    await tx.run('INSERT INTO plan_graphs (graph_id, version, created_at, updated_at) VALUES (?, ?, ?, ?)', [
      graph.graph_id,
      1,
      1,
      1,
    ]);
    await tx.run('INSERT INTO plan_graph_versions (graph_id, version, graph, committed_at) VALUES (?, ?, ?, ?)', [
      graph.graph_id,
      1,
      JSON.stringify(graph),
      1,
    ]);
  });
  return { workflowId, design, build, test, docs, review, stale };
}

const statuses = ['open', 'in_progress', 'done', 'done', 'failed'];

/** `count` tasks spread over the columns, written in one transaction (one change for the editor). */
export async function addManyTasks(engine: LedgerEngine, count: number): Promise<void> {
  await engine.write(async (tx) => {
    for (let i = 0; i < count; i++) {
      const status = statuses[i % statuses.length];
      await tx.insert(
        'INSERT INTO tasks (title, status, result, assignee, last_milestone, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [
          `Bulk task ${i + 1}`,
          status,
          status === 'done' ? 'success' : null,
          i % 3 === 0 ? `agent-${i % 7}` : null,
          status === 'in_progress' ? `step ${i}` : null,
          at(10),
          at(10),
        ],
      );
    }
  });
}
