import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';
import { drive, start, twoTasks } from './pipelineDriver';

/**
 * Plans from what worked before, end to end through the real SDK client over stdio: a finished
 * workflow (with its plan graph's dependencies), a pipeline driven to completion and a Memory
 * Bank entry feed the knowledge graph by themselves; kg_suggest_plan on their goal suggests the
 * fragments with exact coverage, and each fragment's ready patch, passed to graph_patch as it is,
 * puts its nodes and dependencies on a new workflow's plan graph.
 */

interface Patch {
  fragment_id: string;
  graph_id: string | null;
  base_version: number | null;
  node_ids: Record<string, string>;
  patch: unknown[];
  skipped: { nodes: string[]; edges: string[] };
}
interface Suggestion {
  coverage: {
    total_tasks: number;
    suggested_tasks: string[];
    excluded_tasks: string[];
    missing_dependencies: unknown[];
    unknown_dependencies: unknown[];
  };
  fragments: {
    id: string;
    nodes: { id: string; label?: string; attributes: Record<string, unknown> }[];
    edges: { from: { nodeId: string }; to: { nodeId: string } }[];
  }[];
  sources: { source: string; tasks: number }[];
  rationale: string[];
  patches: Patch[];
}
interface Graph {
  graph_version: number;
  nodes: { id: string; label: string | null; attributes: Record<string, unknown> }[];
  edges: { from: string; to: string; label: string | null }[];
}

const goal = 'Add the retry option';
const repoFiles = {
  'package.json': '{"scripts":{"build":"tsc -p .","test":"node --test"}}\n',
  'src/http.ts': 'export function get() {}\n',
  'README.md': '# demo\n',
};
const edgesOf = (g: Graph) => g.edges.map((e) => `${e.from}->${e.to}`);

test('finished workflow + completed pipeline + Memory Bank → kg_suggest_plan → graph_patch onto a new workflow’s plan graph', async () => {
  const repo = tempRepo(repoFiles);
  const c = await connect(repo, ['--enable-orchestrator']);
  try {
    // A finished workflow: design → implement → tests (a cancelled spike is left out of the plan).
    const wf = await c.call<{ workflow_id: string }>('start_workflow', { name: goal, description: 'the first time' });
    const ids: string[] = [];
    for (const [name, status] of [
      ['Design the option', 'success'],
      ['Implement the retries', 'success'],
      ['Test the retries', 'partial_success'],
    ] as const) {
      const t = await c.call<{ task_id: string }>('start_task', { workflow_id: wf.workflow_id, name, goal: name });
      await c.call('complete_task', { task_id: t.task_id, status, outcome: { summary: name } });
      ids.push(t.task_id);
    }
    const spike = await c.call<{ task_id: string }>('start_task', {
      workflow_id: wf.workflow_id,
      name: 'Spike: backoff library',
      goal: 'g',
    });
    await c.call('task_update', { id: spike.task_id, status: 'cancelled' });
    const [design, implement, tests] = ids;
    await c.call('graph_patch', {
      graph_id: wf.workflow_id,
      patch: [
        { op: 'add', path: `/edges/${design}`, value: { [implement]: { label: 'depends_on', attributes: {} } } },
        { op: 'add', path: `/edges/${implement}`, value: { [tests]: { label: 'depends_on', attributes: {} } } },
      ],
    });

    // A pipeline with the same goal, driven to completion (effort S: the light flow, two tasks).
    const { workspace } = await start(c, `${goal} --nopr`, { effort: 'S', use_current_branch: false });
    await drive(c, repo, workspace, { tasksMd: twoTasks });
    const state = JSON.parse(fs.readFileSync(path.join(repo, workspace, 'state.json'), 'utf8')) as {
      status: string;
      spec_name: string;
      tasks: { ledger_task_id: string }[];
    };
    assert.equal(state.status, 'completed');
    const spec = state.spec_name;

    // A decision recorded in the Memory Bank, naming a task and the goal.
    await c.call('memory_add', {
      id: 'retry-budget',
      category: 'decisions',
      title: 'Three retries at most',
      summary: `Agreed in ${implement}`,
      content: `For ${goal.toLowerCase()}: exponential backoff.`,
    });

    const s = await c.call<Suggestion>('kg_suggest_plan', { goal, context: { preferred_sources: ['workflow'] } });
    const phases = [
      'phase-1',
      'phase-3',
      'checkpoint-a',
      'phase-4',
      'phase-4b',
      'checkpoint-b',
      'phase-5',
      'phase-6',
      'final-verification',
      'improvement',
      'final-summary',
    ].map((p) => `${spec}/${p}`);
    const pipelineTasks = [`${spec}/task-1`, `${spec}/task-2`];
    assert.deepEqual(s.coverage, {
      total_tasks: 3 + phases.length + 2,
      suggested_tasks: [...ids, ...phases, ...pipelineTasks].sort(),
      excluded_tasks: [],
      missing_dependencies: [],
      unknown_dependencies: [],
    });
    assert.deepEqual(s.sources, [
      { source: 'pipeline', tasks: 13 },
      { source: 'workflow', tasks: 3 },
    ]);
    assert.deepEqual(
      s.fragments.map((f) => f.id),
      ['add-the-retry-option-fragment-1', 'add-the-retry-option-fragment-2'],
    );
    assert.deepEqual(
      s.fragments[0].nodes.map((n) => [n.id, n.label, n.attributes.kg_source, n.attributes.kg_confidence]),
      [
        [design, 'Design the option', 'workflow', 1],
        [implement, 'Implement the retries', 'workflow', 1],
        [tests, 'Test the retries', 'workflow', 0.6],
      ],
    );
    const phase5 = s.fragments[1].nodes.find((n) => n.id === `${spec}/phase-5`);
    assert.equal(phase5?.attributes.kg_group, 'other sources');
    assert.equal(typeof phase5?.attributes.kg_duration, 'number', 'the phase duration the pipeline recorded');
    assert.deepEqual(
      s.fragments[1].edges
        .filter((e) => e.to.nodeId === `${spec}/task-2`)
        .map((e) => e.from.nodeId)
        .sort(),
      [`${spec}/checkpoint-b`, `${spec}/task-1`],
      'a pipeline task depends on the phase before its implementation phase and, sequential, on the task before it',
    );

    // The Memory Bank entry is linked to the task and the goal it names.
    const about = await c.call<{ triples: { subject: string }[] }>('kg_query', {
      predicate: 'about',
      object: 'add-the-retry-option',
    });
    assert.deepEqual(
      about.triples.map((t) => t.subject),
      ['memory:decisions/retry-budget'],
    );
    const mentions = await c.call<{ triples: { object: string }[] }>('kg_query', {
      subject: 'memory:decisions/retry-budget',
      predicate: 'mentions',
    });
    assert.deepEqual(
      mentions.triples.map((t) => t.object),
      [implement],
    );

    // Fed once: asking again (here or from another process) inserts nothing.
    const total = (await c.call<{ total: number }>('kg_export', {})).total;
    const other = await connect(repo, ['--enable-orchestrator']);
    try {
      await other.call('kg_suggest_plan', { goal });
      assert.equal((await other.call<{ total: number }>('kg_export', {})).total, total);
    } finally {
      await other.close();
    }
    assert.equal((await c.call<{ total: number }>('kg_export', {})).total, total);

    // A new workflow: the first fragment's ready patch, passed to graph_patch as it is.
    const next = await c.call<{ workflow_id: string }>('start_workflow', {
      name: `${goal} to the upload client`,
      description: 'again',
    });
    const own = await c.call<{ task_id: string }>('start_task', {
      workflow_id: next.workflow_id,
      name: 'Wire the option',
      goal: 'g',
    });
    const forNext = await c.call<Suggestion>('kg_suggest_plan', {
      goal,
      context: { preferred_sources: ['workflow'] },
      graph_id: next.workflow_id,
    });
    const [first, second] = forNext.patches;
    assert.deepEqual([first.graph_id, first.base_version], [next.workflow_id, 0]);
    const scoped = (id: string) => `add-the-retry-option:${id}`;
    assert.deepEqual(first.node_ids, {
      [design]: scoped(design),
      [implement]: scoped(implement),
      [tests]: scoped(tests),
    });
    const applied = await c.call<{ committed_version: number; graph: Graph }>('graph_patch', {
      graph_id: first.graph_id,
      patch: first.patch,
      base_version: first.base_version,
    });
    assert.deepEqual(
      applied.graph.nodes.map((n) => [n.id, n.label]),
      [
        [scoped(design), 'Design the option'],
        [scoped(implement), 'Implement the retries'],
        [scoped(tests), 'Test the retries'],
        [own.task_id, 'Wire the option'],
      ],
    );
    assert.deepEqual(edgesOf(applied.graph), [
      `${scoped(design)}->${scoped(implement)}`,
      `${scoped(implement)}->${scoped(tests)}`,
    ]);
    assert.equal(applied.graph.nodes[0].attributes.kg_goal, 'add-the-retry-option');

    // The second patch was computed against the version before: refused, not merged blindly.
    const stale = await c.fail('graph_patch', {
      graph_id: second.graph_id,
      patch: second.patch,
      base_version: second.base_version,
    });
    assert.equal(stale.data?.error ?? stale.reason, 'E-TX-CONFLICT');
    // Asked again for the graph as it is now, it applies; a third time there is nothing left to add.
    const again = await c.call<Suggestion>('kg_suggest_plan', {
      goal,
      context: { preferred_sources: ['workflow'] },
      graph_id: next.workflow_id,
    });
    assert.deepEqual(again.patches[0].patch, [], 'the first fragment is already there');
    assert.equal(again.patches[0].skipped.nodes.length, 3);
    const both = await c.call<{ graph: Graph }>('graph_patch', {
      graph_id: next.workflow_id,
      patch: again.patches[1].patch,
      base_version: again.patches[1].base_version,
    });
    assert.deepEqual(
      both.graph.nodes.map((n) => n.id),
      [...[design, implement, tests].map(scoped), ...phases, ...pipelineTasks, own.task_id].sort((a, b) =>
        a < b ? -1 : a > b ? 1 : 0,
      ),
    );
    assert.equal(both.graph.edges.length, 2 + s.fragments[1].edges.length);
    const last = await c.call<Suggestion>('kg_suggest_plan', { goal, graph_id: next.workflow_id });
    assert.deepEqual(
      last.patches.map((p) => p.patch),
      [[]],
      'nothing left to add',
    );
    const missing = await c.fail('kg_suggest_plan', { goal, graph_id: 'no-such-graph' });
    assert.equal(missing.data?.error ?? missing.reason, 'E-RES-NOT-FOUND');
  } finally {
    await c.close();
  }
});
