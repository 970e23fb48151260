import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseGraph, sameGraphContent } from '../../../../../src/core/coordination/plans/planGraph';
import { applyGraphMutations } from '../../../../../src/core/coordination/plans/graphMutations';
import { assertGraphValid, checkGraph, findCycles } from '../../../../../src/core/coordination/plans/graphInvariants';
import { coordinationErrorName, isCoordinationError } from '../../../../../src/core/coordination/coordinationErrors';
import { randomDag } from './graphFixtures';
import { seeded } from './random';

const base = () =>
  normaliseGraph({
    graph_id: 'g',
    graph_version: 4,
    name: 'plan',
    nodes: [
      { id: 'b', label: 'Build', attributes: { status: 'open', a: 1 } },
      { id: 'a', attributes: { z: true, status: 'done' } },
    ],
    edges: [{ from: 'a', to: 'b', label: 'depends_on' }],
  });

test('normalisation sorts nodes, edges and attribute keys in code-unit order and fills nulls', () => {
  const g = normaliseGraph({
    nodes: [{ id: 'b' }, { id: 'B' }, { id: 'a', attributes: { y: 1, x: 2, bad: {} as never } }],
    edges: [
      { from: 'b', to: 'a' },
      { from: 'B', to: 'a' },
    ],
  });
  assert.deepEqual(
    g.nodes.map((n) => n.id),
    ['B', 'a', 'b'],
  );
  assert.deepEqual(Object.keys(g.nodes[1].attributes), ['x', 'y']);
  assert.deepEqual(
    g.edges.map((e) => e.from),
    ['B', 'b'],
  );
  assert.equal(g.nodes[0].label, null);
  assert.equal(g.name, 'workflow');
  assert.equal(g.graph_version, 1);
});

test('graph_mutate operations: one record each, and changed:false keeps the version', () => {
  const g = base();
  const r = applyGraphMutations(g, [
    { op: 'add_node', node: { id: 'c', label: 'Test', attributes: { status: 'open' } } },
    { op: 'add_edge', edge: { from: 'b', to: 'c', label: 'depends_on' } },
    { op: 'set_node_attribute', id: 'b', key: 'status', value: 'done' },
    { op: 'set_node_attribute', id: 'a', key: 'z', value: null },
    { op: 'set_edge_attribute', from: 'a', to: 'b', key: 'weight', value: 2 },
    { op: 'rename_node', id: 'c', new_id: 'test' },
    { op: 'patch_metadata', set: { kind: 'plan' }, unset: ['absent'] },
    { op: 'remove_edge', from: 'x', to: 'y' },
  ]);
  assert.deepEqual(
    r.applied.map((a) => [a.op, a.changed]),
    [
      ['add_node', true],
      ['add_edge', true],
      ['set_node_attribute', true],
      ['set_node_attribute', true],
      ['set_edge_attribute', true],
      ['rename_node', true],
      ['patch_metadata', true],
      ['remove_edge', false],
    ],
  );
  assert.equal(r.changed, true);
  assert.equal(r.graph.graph_version, 5);
  assert.deepEqual(
    r.graph.edges.map((e) => `${e.from}>${e.to}`),
    ['a>b', 'b>test'],
  );
  assert.deepEqual(r.graph.metadata, { kind: 'plan' });
  assert.equal(g.nodes.length, 2, 'the input graph is untouched');

  const noop = applyGraphMutations(g, [
    { op: 'add_node', node: { id: 'a' } },
    { op: 'remove_node', id: 'nope' },
    { op: 'rename_node', id: 'a', new_id: 'b' },
    { op: 'set_node_attribute', id: 'a', key: 'status', value: 'done' },
    { op: 'set_edge_attribute', from: 'b', to: 'a', key: 'k', value: 1 },
    { op: 'patch_metadata', unset: ['nothing'] },
  ]);
  assert.equal(noop.changed, false);
  assert.ok(noop.applied.every((a) => !a.changed && a.description.length > 0));
  assert.equal(noop.graph.graph_version, 4);
  assert.ok(sameGraphContent(noop.graph, g));
});

test('add_node on an existing node merges and says so; remove_node takes its edges', () => {
  const r = applyGraphMutations(base(), [
    { op: 'add_node', node: { id: 'a', attributes: { status: 'failed' } } },
    { op: 'remove_node', id: 'b' },
  ]);
  assert.deepEqual(
    r.applied.map((a) => a.changed),
    [true, true],
  );
  assert.equal(r.graph.nodes[0].attributes.status, 'failed');
  assert.deepEqual(r.graph.edges, []);
  assert.throws(
    () => applyGraphMutations(base(), [{ op: 'patch_metadata' }]),
    (e) => isCoordinationError(e, 'E-GRAPH-INVALID-INPUT'),
  );
});

test('changed is true exactly when the content changed (random operations)', () => {
  const r = seeded(11);
  for (let i = 0; i < 200; i++) {
    const g = randomDag(r, 8, 2);
    const ids = [...g.nodes.map((n) => n.id), 'ghost'];
    const ops = Array.from({ length: 1 + r.int(4) }, () => {
      switch (r.int(6)) {
        case 0:
          return {
            op: 'add_node' as const,
            node: { id: r.pick(ids), attributes: { status: r.pick(['open', 'done']) } },
          };
        case 1:
          return { op: 'remove_node' as const, id: r.pick(ids) };
        case 2:
          return { op: 'rename_node' as const, id: r.pick(ids), new_id: r.pick(ids) };
        case 3:
          return { op: 'remove_edge' as const, from: r.pick(ids), to: r.pick(ids) };
        case 4:
          return {
            op: 'set_node_attribute' as const,
            id: r.pick(ids),
            key: 'status',
            value: r.pick(['open', 'done', null]),
          };
        default:
          return { op: 'patch_metadata' as const, set: { owner: r.pick(['bench', 'x']) } };
      }
    });
    const res = applyGraphMutations(g, ops);
    assert.equal(res.changed, !sameGraphContent(res.graph, g), JSON.stringify(ops));
    assert.equal(res.graph.graph_version, g.graph_version + (res.changed ? 1 : 0));
  }
});

test('invariants report precise, coded violations', () => {
  const g = normaliseGraph({
    graph_id: 'g',
    nodes: [{ id: 'a' }, { id: 'a' }, { id: 'b' }],
    edges: [
      { from: 'a', to: 'b' },
      { from: 'a', to: 'b' },
      { from: 'b', to: 'ghost' },
      { from: 'b', to: 'b' },
    ],
  });
  const report = checkGraph(g);
  assert.equal(report.ok, false);
  const v = report.ok ? [] : report.violations;
  assert.deepEqual(
    v.map((x) => [x.code, x.path, x.hint]),
    [
      ['E-GRAPH-INVALID-INPUT', '/nodes/1', 'ensure_node_ids_unique'],
      ['E-GRAPH-INVALID-INPUT', '/edges/1', 'ensure_edges_unique'],
      ['E-GRAPH-INVALID-INPUT', '/edges/2', 'remove_self_loop'],
      ['E-GRAPH-INVALID-INPUT', '/edges/3', 'ensure_edge_nodes_exist'],
      ['E-PATCH-CYCLE', '/edges', 'remove or reroute one of the cycle edges'],
    ],
  );
  assert.deepEqual(v[3].details, { from: 'b', to: 'ghost', missing: ['ghost'] });
  assert.throws(
    () => assertGraphValid(g),
    (e) => coordinationErrorName(e) === 'E-PATCH-INVARIANT-VIOLATION' && (e as any).data.violations.length === 5,
  );
  const cyclic = normaliseGraph({
    graph_id: 'g',
    nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
    edges: [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
    ],
  });
  assert.throws(
    () => assertGraphValid(cyclic),
    (e) => coordinationErrorName(e) === 'E-PATCH-CYCLE' && (e as any).code === 'ValidationError',
  );
  assert.doesNotThrow(() => assertGraphValid(cyclic, { enforceInvariants: false }));
  assert.deepEqual(findCycles(cyclic), [['a', 'b', 'c', 'a']]);
  assert.equal(checkGraph(normaliseGraph({ graph_id: 'g', nodes: [], edges: [] })).ok, true, 'an empty plan is valid');
});

test('every injected cycle is caught (random DAGs)', () => {
  const r = seeded(3);
  for (let i = 0; i < 300; i++) {
    const g = randomDag(r, 2 + r.int(40), 2);
    assert.equal(checkGraph(g).ok, true, 'random DAGs are valid');
    // Close a cycle: pick a path from a to b by walking successors, then add b -> a.
    const succ = new Map<string, string[]>();
    for (const e of g.edges) succ.set(e.from, [...(succ.get(e.from) ?? []), e.to]);
    let a = r.pick(g.nodes).id;
    const path = [a];
    while ((succ.get(a) ?? []).length > 0 && (path.length < 2 || r.next() < 0.7)) path.push((a = r.pick(succ.get(a)!)));
    const from = path[path.length - 1];
    const to = path[0];
    const cyclic = normaliseGraph({ ...g, edges: [...g.edges, { from, to, label: 'back' }] }, g);
    const report = checkGraph(cyclic, { allowSelfLoops: true });
    if (from === to) continue; // a one-node path: nothing to close
    assert.equal(report.ok, false, `cycle ${path.join('>')} is found`);
    const cycles = report.ok
      ? []
      : report.violations.filter((v) => v.code === 'E-PATCH-CYCLE').map((v) => v.details!.cycle as string[]);
    assert.ok(cycles.length > 0);
    for (const cycle of cycles) {
      for (let k = 0; k + 1 < cycle.length; k++)
        assert.ok(
          cyclic.edges.some((e) => e.from === cycle[k] && e.to === cycle[k + 1]),
          'each cycle is made of real edges',
        );
      assert.equal(cycle[0], cycle[cycle.length - 1]);
    }
  }
});

test('cycle detection does not overflow the stack on a long chain', () => {
  const n = 50_000;
  const g = normaliseGraph({
    graph_id: 'g',
    nodes: Array.from({ length: n }, (_, i) => ({ id: `n${i}` })),
    edges: Array.from({ length: n }, (_, i) => ({ from: `n${i}`, to: `n${(i + 1) % n}` })),
  });
  assert.equal(findCycles(g).length, 1);
});
