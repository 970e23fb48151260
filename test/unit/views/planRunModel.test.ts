import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PlanNodeOutput, PlanRunOutput } from '../../../src/core/runtime/planRuns/planRunContracts';
import { planRunOutput } from '../../../src/core/runtime/planRuns/planRunContracts';
import { leafState, planRunSummary, planRunView, starterName } from '../../../src/views/planRunModel';
import { BoardDeltas } from '../../../src/views/boardDeltas';
import type { BoardModel } from '../../../src/shared/protocol';

function node(over: Partial<PlanNodeOutput>): PlanNodeOutput {
  return {
    id: 'n',
    type: 'task',
    depth: 1,
    status: 'idle',
    reason: null,
    task_id: null,
    task_status: null,
    agent: null,
    execution_id: null,
    attempts: null,
    op_id: null,
    cost_usd: null,
    ...over,
  };
}

/** A run as plan_status answers it (checked against the tool's own output schema). */
function run(status: PlanRunOutput['status'], nodes: PlanNodeOutput[]): PlanRunOutput {
  return planRunOutput.parse({
    run_id: 'plan-4',
    op_id: 'op-1',
    graph_id: 'wf-2',
    tree_id: 'tree-1',
    mode: 'reactive',
    status,
    reason: status === 'paused' ? 'paused by person:ann' : null,
    client: null,
    model: null,
    tick_ms: 200,
    ticks: 3,
    created_by: 'person:ann',
    created_at: '2026-11-28T16:00:00.000Z',
    updated_at: '2026-11-28T16:00:05.000Z',
    ended_at: null,
    progress: { leaves: 4, succeeded: 1, failed: 0, running: 2, waiting: 1, skipped: 0, percent: 25 },
    nodes,
  });
}

test("a task leaf is queued until its agent's run goes on, then running with that run", () => {
  assert.equal(leafState(node({ status: 'running', task_id: 'task-1' })), 'queued');
  assert.equal(leafState(node({ status: 'running', task_id: 'task-1', execution_id: 'exec-3' })), 'running');
  assert.equal(leafState(node({ status: 'ready', reason: 'the run is paused' })), 'waiting');
  assert.equal(leafState(node({ status: 'idle' })), 'waiting');
  assert.equal(leafState(node({ status: 'success' })), 'done');
  assert.equal(leafState(node({ status: 'failure' })), 'failed');
  assert.equal(leafState(node({ status: 'skipped' })), 'skipped');
  assert.equal(leafState(node({ status: 'cancelled' })), 'cancelled');
});

test('a gate that waits for a person needs one; a tool leaf that waits for a server does not', () => {
  assert.equal(
    leafState(node({ type: 'gate', status: 'waiting', reason: 'waits for a person to approve: ship it' })),
    'needs-person',
  );
  assert.equal(
    leafState(node({ type: 'tool', status: 'waiting', reason: 'waits for an MCP server or the CLI to call the tool' })),
    'waiting',
  );
});

test('who started a run reads as a person: a person, an agent, a connection without an agent', () => {
  assert.equal(starterName('person:ann'), 'ann');
  assert.equal(starterName('agent:7'), 'agent 7');
  assert.equal(starterName('connection:host-1/bob/4242'), 'bob');
  assert.equal(starterName(null), null);
});

test('the view of a run: its leaves only, their agents and costs, the buttons its state allows', () => {
  const nodes = [
    node({ id: 'root', type: 'sequence', depth: 0, status: 'running' }),
    node({ id: 'task-1', task_id: 'task-1', status: 'success', agent: 'coder', cost_usd: 0.25 }),
    node({
      id: 'task-2',
      task_id: 'task-2',
      status: 'running',
      agent: 'reviewer',
      execution_id: 'exec-9',
      cost_usd: 0.5,
    }),
    node({ id: 'task-3', task_id: 'task-3', status: 'running', agent: 'coder' }),
    node({ id: 'task-4~gate', type: 'gate', status: 'waiting', reason: 'waits for a person to approve: release' }),
    node({ id: 'task-4~task', task_id: 'task-4', status: 'idle', agent: 'coder' }),
  ];
  const v = planRunView(run('running', nodes));
  assert.deepEqual(
    v.leaves.map((l) => [l.id, l.kind, l.graphNode, l.state, l.agent, l.executionId]),
    [
      ['task-1', 'task', 'task-1', 'done', 'coder', null],
      ['task-2', 'task', 'task-2', 'running', 'reviewer', 'exec-9'],
      ['task-3', 'task', 'task-3', 'queued', 'coder', null],
      ['task-4~gate', 'gate', 'task-4', 'needs-person', null, null],
      ['task-4~task', 'task', 'task-4', 'waiting', 'coder', null],
    ],
    "a task's gate belongs to the task's node of the graph",
  );
  assert.equal(v.workflowId, 2);
  assert.equal(v.costUsd, 0.75);
  assert.equal(v.startedBy, 'ann');
  assert.deepEqual(v.actions, ['pause', 'cancel']);
  assert.equal(planRunSummary(v), 'plan-4 running · 1/4 done, 2 running · started by ann');
  assert.deepEqual(planRunView(run('paused', nodes)).actions, ['resume', 'cancel']);
  assert.equal(planRunView(run('paused', nodes)).reason, 'paused by ann', "the person's name, not their identity");
  for (const ended of ['succeeded', 'failed', 'cancelled'] as const)
    assert.deepEqual(planRunView(run(ended, nodes)).actions, [], `${ended}: no button`);
});

test("the Board's deltas carry the plan runs when, and only when, they changed", () => {
  const deltas = new BoardDeltas();
  const running = planRunView(run('running', [node({ id: 'task-1', task_id: 'task-1', status: 'running' })]));
  const model = (plans: BoardModel['plans']): BoardModel =>
    ({ folder: '/r', folderName: 'r', cards: [], agents: [], waiting: [], plans }) as unknown as BoardModel;
  assert.equal(deltas.next(model([running]))?.type, 'board');
  assert.equal(deltas.next(model([running])), null, 'nothing changed: nothing sent');
  const paused = { ...running, status: 'paused' as const, actions: ['resume' as const, 'cancel' as const] };
  const delta = deltas.next(model([paused]));
  assert.equal(delta?.type, 'boardDelta');
  assert.deepEqual(delta?.type === 'boardDelta' ? delta.plans : undefined, [paused]);
  const gone = deltas.next(model([]));
  assert.deepEqual(gone?.type === 'boardDelta' ? gone.plans : undefined, [], 'the strip empties when the run ends');
});
