import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyGraphPatch, diffGraphs } from '../../../../../src/core/coordination/plans/graphDiff';
import type { JsonPatchOperation } from '../../../../../src/core/coordination/plans/graphDiff';
import { planGraphBatchMutation, planGraphPatch } from '../../../../../src/core/coordination/plans/graphPatch';
import { normaliseGraph, sameGraphContent } from '../../../../../src/core/coordination/plans/planGraph';
import { coordinationErrorName, isCoordinationError } from '../../../../../src/core/coordination/coordinationErrors';
import { graphDiffOutput } from '../../../../../src/core/coordination/plans/graphToolContracts';
import { randomDag, randomEdit } from './graphFixtures';
import { seeded } from './random';

const g1 = normaliseGraph({
  graph_id: 'g',
  graph_version: 2,
  name: 'plan',
  metadata: { owner: 'me' },
  nodes: [
    { id: 'lint', label: 'Lint', attributes: { status: 'done' } },
    { id: 'test', attributes: { status: 'open' } },
    { id: 'a/b~c', attributes: {} },
  ],
  edges: [{ from: 'lint', to: 'test', label: 'depends_on' }],
});

test('graph_diff addresses nodes by id and summarises the sections', () => {
  const g2 = normaliseGraph(
    {
      ...g1,
      name: 'plan',
      nodes: [
        ...g1.nodes.filter((n) => n.id !== 'a/b~c'),
        { id: 'build', label: null, attributes: { status: 'open' } },
      ],
      edges: [...g1.edges, { from: 'test', to: 'build', label: 'depends_on', attributes: {} }],
    },
    g1,
  );
  g2.nodes.find((n) => n.id === 'test')!.attributes.status = 'done';
  const diff = diffGraphs(g1, g2);
  assert.deepEqual(diff.summary, {
    nameChanged: false,
    metadataChanged: false,
    nodesChanged: true,
    edgesChanged: true,
  });
  assert.deepEqual(diff.operations.map((o) => `${o.op} ${o.path}`).sort(), [
    'add /edges/test',
    'add /nodes/build',
    'remove /nodes/a~1b~0c',
    'replace /nodes/test/attributes/status',
  ]);
  assert.equal(
    graphDiffOutput.shape.operations.safeParse(diff.operations).success,
    true,
    'the patch fits the output contract',
  );
  assert.ok(sameGraphContent(applyGraphPatch(g1, diff.operations), g2));
  const big = randomDag(seeded(5), 1000, 2);
  const smaller = normaliseGraph(
    {
      ...big,
      nodes: big.nodes.filter((n) => n.id !== 't0500'),
      edges: big.edges.filter((e) => e.from !== 't0500' && e.to !== 't0500'),
    },
    big,
  );
  const removal = diffGraphs(big, smaller);
  const touching = big.edges.filter((e) => e.from === 't0500' || e.to === 't0500').length;
  assert.ok(
    removal.operations.length <= 1 + touching,
    `removing one of 1,000 nodes is ${removal.operations.length} operations, not ~1,000`,
  );
  const same = diffGraphs(g1, structuredClone(g1));
  assert.deepEqual(same, {
    operations: [],
    changed: false,
    summary: { nameChanged: false, metadataChanged: false, nodesChanged: false, edgesChanged: false },
  });
});

test('diff then patch reproduces the target (seeded random graphs), deterministically', () => {
  const r = seeded(2024);
  for (let i = 0; i < 150; i++) {
    const base = randomDag(r, 1 + r.int(60), 2);
    const target = randomEdit(r, base, 1 + r.int(12));
    const diff = diffGraphs(base, target);
    const patched = applyGraphPatch(base, diff.operations);
    assert.ok(sameGraphContent(patched, target), `case ${i}`);
    assert.deepEqual(diffGraphs(base, target), diff, 'same inputs, same patch');
    assert.equal(diff.changed, !sameGraphContent(base, target));
  }
});

test('a patch that cannot apply is refused with the operation index', () => {
  const bad: JsonPatchOperation[][] = [
    [{ op: 'replace', path: '/nodes/ghost/label', value: 'x' }],
    [{ op: 'test', path: '/name', value: 'other' }],
    [{ op: 'add', path: '/nodes/x', value: { label: 3 } }],
    [{ op: 'add', path: '/nodes/x', value: { attributes: { deep: { no: 1 } } } }],
    [{ op: 'replace', path: '/edges', value: [] }],
    [{ op: 'remove', path: '/name' }],
  ];
  for (const patch of bad) {
    assert.throws(
      () => applyGraphPatch(g1, patch),
      (e) => isCoordinationError(e, 'E-PATCH-INVALID'),
      JSON.stringify(patch),
    );
  }
  assert.throws(
    () =>
      applyGraphPatch(g1, [
        { op: 'replace', path: '/name', value: 'ok' },
        { op: 'remove', path: '/nodes/ghost' },
      ]),
    (e) => isCoordinationError(e, 'E-PATCH-INVALID') && (e as any).data.index === 1,
  );
  const moved = applyGraphPatch(g1, [
    { op: 'move', from: '/nodes/test', path: '/nodes/unit' },
    { op: 'copy', from: '/metadata/owner', path: '/metadata/reviewer' },
  ]);
  assert.deepEqual(
    moved.nodes.map((n) => n.id),
    ['a/b~c', 'lint', 'unit'],
  );
  assert.equal(moved.metadata.reviewer, 'me');
});

test('graph_patch: base_version conflict, invariants on by default, changed:false keeps the version', () => {
  assert.throws(
    () => planGraphPatch(g1, { patch: [{ op: 'replace', path: '/name', value: 'x' }], base_version: 1 }),
    (e) => isCoordinationError(e, 'E-TX-CONFLICT') && (e as any).data.found === 2,
  );
  const cycle: JsonPatchOperation[] = [
    { op: 'add', path: '/edges/test', value: { lint: { label: 'back', attributes: {} } } },
  ];
  assert.throws(
    () => planGraphPatch(g1, { patch: cycle }),
    (e) => coordinationErrorName(e) === 'E-PATCH-CYCLE',
  );
  const loose = planGraphPatch(g1, { patch: cycle, enforce_invariants: false });
  assert.equal(loose.invariants, null);
  assert.equal(loose.committed_version, 3);
  const dangling: JsonPatchOperation[] = [
    { op: 'add', path: '/edges/lint/ghost', value: { label: null, attributes: {} } },
  ];
  assert.throws(
    () => planGraphPatch(g1, { patch: dangling, enforce_invariants: false }),
    (e) => coordinationErrorName(e) === 'E-GRAPH-INVALID-INPUT',
    'structure is always checked',
  );
  const ok = planGraphPatch(g1, {
    patch: [{ op: 'replace', path: '/nodes/test/attributes/status', value: 'done' }],
    base_version: 2,
  });
  assert.deepEqual(
    [ok.changed, ok.base_version, ok.committed_version, ok.graph.graph_version, ok.operations_applied],
    [true, 2, 3, 3, 1],
  );
  assert.deepEqual(ok.invariants, { ok: true });
  const noop = planGraphPatch(g1, { patch: [{ op: 'replace', path: '/name', value: 'plan' }] });
  assert.deepEqual([noop.changed, noop.committed_version], [false, 2]);
  assert.equal(noop.graph, g1);
});

test('graph_batch_mutate: all or nothing, expected_version, invariants always', () => {
  assert.throws(
    () => planGraphBatchMutation(g1, { operations: [{ op: 'remove_node', id: 'test' }], expected_version: 7 }),
    (e) => isCoordinationError(e, 'E-TX-CONFLICT'),
  );
  assert.throws(
    () =>
      planGraphBatchMutation(g1, {
        operations: [
          { op: 'add_node', node: { id: 'x' } },
          { op: 'add_edge', edge: { from: 'test', to: 'lint' } },
        ],
      }),
    (e) => coordinationErrorName(e) === 'E-PATCH-CYCLE',
  );
  const res = planGraphBatchMutation(g1, {
    operations: [{ op: 'set_node_attribute', id: 'test', key: 'status', value: 'done' }],
    expected_version: 2,
  });
  assert.deepEqual([res.changed, res.base_version, res.committed_version, res.operations_applied], [true, 2, 3, 1]);
  const noop = planGraphBatchMutation(g1, { operations: [{ op: 'remove_edge', from: 'x', to: 'y' }] });
  assert.deepEqual([noop.changed, noop.committed_version], [false, 2]);
});

test("a '__proto__' node id cannot reach an object prototype", () => {
  assert.throws(
    () => diffGraphs(normaliseGraph({ nodes: [{ id: '__proto__' }], edges: [] }), g1),
    (e) => isCoordinationError(e, 'E-GRAPH-INVALID-INPUT'),
  );
  assert.throws(
    () => applyGraphPatch(g1, [{ op: 'add', path: '/nodes/__proto__', value: { label: null, attributes: {} } }]),
    (e) => isCoordinationError(e, 'E-PATCH-INVALID'),
  );
  assert.throws(
    () => applyGraphPatch(g1, JSON.parse('[{"op":"replace","path":"/metadata","value":{"__proto__":{"x":1}}}]')),
    (e) => isCoordinationError(e, 'E-PATCH-INVALID'),
  );
  assert.equal(({} as Record<string, unknown>).x, undefined);
});
