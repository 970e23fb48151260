// The plan graph's layout input (pure) and dagre's placement of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutGraph, layoutInput, NODE_HEIGHT, NODE_WIDTH } from '../../../../src/core/board/planGraphLayout';
import { dependencyPairs } from '../../../../src/core/tasks/taskDependencies';
import { nodeTaskId } from '../../../../src/core/events/correlation';
import type { PlanTaskRow } from '../../../../src/core/board/planGraphLayout';
import { nodeWhy } from '../../../../src/core/board/planGraphLayout';

test('a node says why its task does not run: a hold first, the runner’s word only while the task is open', () => {
  const waiting = { detail: 'waits for task-6, task-7' };
  assert.deepEqual(nodeWhy('in_progress', 'ada', waiting), { kind: 'held', text: 'held — stopped by ada' });
  assert.deepEqual(nodeWhy('in_progress', null, waiting), { kind: 'waiting', text: 'waits for task-6, task-7' });
  assert.deepEqual(nodeWhy('open', null, waiting), { kind: 'waiting', text: 'waits for task-6, task-7' });
  assert.equal(nodeWhy('done', null, waiting), null, 'a finished task waits for nothing');
  assert.equal(nodeWhy('open', null, null), null);
});

const task = (id: number): PlanTaskRow => ({
  id,
  title: `T${id}`,
  status: 'open',
  result: null,
  agent: null,
  progress: null,
  why: null,
});

test('layout input: a node per task in id order, each dependency inside the workflow once, no self edge', () => {
  const input = layoutInput(
    [task(3), task(1), task(2)],
    new Map([
      [2, [1, 1, 2, 99]],
      [3, [2, 1]],
    ]),
  );
  assert.deepEqual(
    input.nodes,
    [1, 2, 3].map((id) => ({ id: `task-${id}`, width: NODE_WIDTH, height: NODE_HEIGHT })),
  );
  assert.deepEqual(input.edges, [
    { from: 'task-1', to: 'task-2' },
    { from: 'task-1', to: 'task-3' },
    { from: 'task-2', to: 'task-3' },
  ]);
});

test('dependencies from a stored plan graph: task nodes are task-<id> (as task_get and the start gates read them), other nodes and malformed edges ignored', () => {
  assert.equal(nodeTaskId('task-12'), 12);
  assert.equal(nodeTaskId('12'), null);
  assert.equal(nodeTaskId('#12'), null);
  assert.equal(nodeTaskId('review'), null);
  assert.deepEqual(
    dependencyPairs({
      edges: [
        { from: 'task-1', to: 'task-2' },
        { from: 'task-1', to: '2' },
        { from: 'x', to: 'task-2' },
        { from: 'task-3', to: 'task-3' },
        { from: 4, to: 'task-2' },
      ],
    }),
    [[1, 2]],
  );
  assert.deepEqual(dependencyPairs({}), []);
});

test('dagre places a diamond in three layers, every edge routed downwards, no overlap', () => {
  const input = layoutInput(
    [task(1), task(2), task(3), task(4)],
    new Map([
      [2, [1]],
      [3, [1]],
      [4, [2, 3]],
    ]),
  );
  const placed = layoutGraph(input);
  const y = (id: number): number => placed.nodes.get(`task-${id}`)!.y;
  assert.ok(y(1) < y(2) && y(2) === y(3) && y(3) < y(4));
  assert.ok(
    Math.abs(placed.nodes.get('task-2')!.x - placed.nodes.get('task-3')!.x) >= NODE_WIDTH,
    'side by side, not overlapping',
  );
  for (const [k, points] of placed.edges) {
    assert.ok(points.length >= 2, `${k} has a route`);
    assert.ok(points[0].y < points[points.length - 1].y, `${k} runs downwards`);
  }
  assert.ok(placed.width >= 2 * NODE_WIDTH && placed.height >= 3 * NODE_HEIGHT);
});
