// The plan graph's layout input (pure) and dagre's placement of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { edgeKey, layoutGraph, layoutInput, NODE_HEIGHT, NODE_WIDTH } from '../../../../src/core/board/planGraphLayout';
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
    { from: 'task-1', to: 'task-2', kind: 'dependency' },
    { from: 'task-1', to: 'task-3', kind: 'dependency' },
    { from: 'task-2', to: 'task-3', kind: 'dependency' },
  ]);
});

test('layout input: a sub-task gets an edge from its parent, of its own kind, when the parent is in the workflow', () => {
  const sub = (id: number, parentId: number | null): PlanTaskRow => ({ ...task(id), parentId });
  const input = layoutInput([sub(1, null), sub(2, 1), sub(3, 1), sub(4, 99), sub(5, 5)], new Map([[3, [2]]]));
  assert.deepEqual(input.edges, [
    { from: 'task-2', to: 'task-3', kind: 'dependency' },
    { from: 'task-1', to: 'task-2', kind: 'parent' },
    { from: 'task-1', to: 'task-3', kind: 'parent' },
  ]);
});

test('dagre places sub-tasks under their parent; a parent that waits for them sits below them, its edges still routed', () => {
  const sub = (id: number, parentId: number | null): PlanTaskRow => ({ ...task(id), parentId });
  const tasks = [sub(1, null), sub(2, 1), sub(3, 1)];
  const y = (placed: ReturnType<typeof layoutGraph>, id: number): number => placed.nodes.get(`task-${id}`)!.y;

  const free = layoutGraph(layoutInput(tasks, new Map()));
  assert.ok(y(free, 1) < y(free, 2) && y(free, 2) === y(free, 3), 'parent on top, sub-tasks one layer down');
  const route = free.edges.get(edgeKey({ from: 'task-1', to: 'task-2', kind: 'parent' }))!;
  assert.ok(route.length >= 2 && route[0].y < route.at(-1)!.y, 'the parent edge runs from the parent down');

  // The parent depends on both sub-tasks: a cycle with the parent edges. The order of work wins.
  const waits = layoutGraph(layoutInput(tasks, new Map([[1, [2, 3]]])));
  assert.ok(y(waits, 2) < y(waits, 1) && y(waits, 3) < y(waits, 1), 'the parent is laid out after its sub-tasks');
  assert.equal(waits.edges.size, 4, 'two dependency edges and two parent edges, each with its own route');
  for (const [k, points] of waits.edges) assert.ok(points.length >= 2, `${k} has a route`);
  const up = waits.edges.get(edgeKey({ from: 'task-1', to: 'task-3', kind: 'parent' }))!;
  const parentAt = waits.nodes.get('task-1')!;
  assert.ok(
    Math.abs(up[0].y - parentAt.y) < Math.abs(up.at(-1)!.y - parentAt.y),
    'the parent edge starts at the parent (drawn from parent to sub-task)',
  );
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
