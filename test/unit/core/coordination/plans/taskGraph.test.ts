import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  graphToTasks,
  readyTasks,
  tasksToGraph,
  topologicalOrder,
  unmetDependencies,
} from '../../../../../src/core/coordination/plans/taskGraph';
import type { PlanTask } from '../../../../../src/core/coordination/plans/taskGraph';
import { checkGraph } from '../../../../../src/core/coordination/plans/graphInvariants';
import { isCoordinationError } from '../../../../../src/core/coordination/coordinationErrors';
import { seeded } from './random';

const tasks: PlanTask[] = [
  { id: 'test', title: 'Unit tests', status: 'open', depends_on: ['lint', 'build'] },
  { id: 'lint', title: 'Lint', status: 'done', depends_on: [] },
  { id: 'build', title: 'Build', status: 'in_progress', depends_on: ['lint'] },
  { id: 'docs', title: 'Docs', status: 'open', depends_on: ['lint'] },
  { id: 'ship', title: 'Ship', status: 'open', depends_on: ['test', 'external-approval'] },
];

test('tasks become a graph and back', () => {
  const g = tasksToGraph(tasks, { graph_id: 'wf-1', name: 'release' });
  assert.deepEqual(
    g.nodes.map((n) => n.id),
    ['build', 'docs', 'lint', 'ship', 'test'],
  );
  assert.deepEqual(g.nodes[0], { id: 'build', label: 'Build', attributes: { status: 'in_progress', title: 'Build' } });
  assert.deepEqual(
    g.edges.find((e) => e.to === 'test' && e.from === 'build'),
    { from: 'build', to: 'test', label: 'depends_on', attributes: {} },
  );
  const report = checkGraph(g);
  assert.equal(report.ok, false, 'a dependency on an unknown task is a dangling edge');
  const back = graphToTasks(g);
  assert.deepEqual(
    back.find((t) => t.id === 'test'),
    { id: 'test', title: 'Unit tests', status: 'open', depends_on: ['build', 'lint'] },
  );
  assert.deepEqual(
    back.map((t) => t.id),
    ['build', 'docs', 'lint', 'ship', 'test'],
  );
});

test('ready tasks have every dependency done', () => {
  assert.deepEqual(
    readyTasks(tasks).map((t) => t.id),
    ['docs'],
  );
  const later = tasks.map((t) => (t.id === 'build' ? { ...t, status: 'done' } : t));
  assert.deepEqual(
    readyTasks(later).map((t) => t.id),
    ['test', 'docs'],
  );
  assert.deepEqual(unmetDependencies(tasks[4], later), ['external-approval', 'test']);
  assert.deepEqual(
    readyTasks(later, { doneStatuses: ['done', 'cancelled'], pickableStatuses: ['open', 'in_progress'] }).map(
      (t) => t.id,
    ),
    ['test', 'docs'],
  );
});

test('topological order puts dependencies first, smallest id first among equals, and refuses cycles', () => {
  assert.deepEqual(topologicalOrder(tasks), ['lint', 'build', 'docs', 'test', 'ship']);
  const cyclic = [...tasks, { id: 'lint2', title: '', status: 'open', depends_on: ['ship'] }].map((t) =>
    t.id === 'lint' ? { ...t, depends_on: ['lint2'] } : t,
  );
  assert.throws(
    () => topologicalOrder(cyclic),
    (e) => isCoordinationError(e, 'E-PATCH-CYCLE') && ((e as any).data.cycle as string[]).includes('lint2'),
  );
  const r = seeded(8);
  for (let i = 0; i < 100; i++) {
    const n = 1 + r.int(50);
    const random: PlanTask[] = Array.from({ length: n }, (_, k) => ({
      id: `t${k}`,
      title: '',
      status: 'open',
      depends_on: Array.from({ length: r.int(3) }, () => `t${r.int(k)}`).filter((d) => d !== `t${k}` && k > 0),
    }));
    const order = topologicalOrder([...random].reverse());
    const position = new Map(order.map((id, k) => [id, k]));
    assert.equal(order.length, n);
    for (const t of random) for (const d of t.depends_on) assert.ok(position.get(d)! < position.get(t.id)!);
  }
});
