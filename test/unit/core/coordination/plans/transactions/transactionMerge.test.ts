import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  changedPlaces,
  mergeTransaction,
  writeChanges,
} from '../../../../../../src/core/coordination/plans/transactions/transactionMerge';
import { applyGraphMutations } from '../../../../../../src/core/coordination/plans/graphMutations';
import type { GraphMutationOperation } from '../../../../../../src/core/coordination/plans/graphContracts';
import { normaliseGraph, sameGraphContent } from '../../../../../../src/core/coordination/plans/planGraph';
import type { PlanGraph } from '../../../../../../src/core/coordination/plans/planGraph';
import { isCoordinationError } from '../../../../../../src/core/coordination/coordinationErrors';
import { randomDag } from '../graphFixtures';
import { seeded } from '../random';

const base = normaliseGraph({
  graph_id: 'g',
  graph_version: 3,
  name: 'plan',
  metadata: { owner: 'lead' },
  nodes: [
    { id: 'a', attributes: { status: 'open' } },
    { id: 'b', attributes: { status: 'open' } },
  ],
  edges: [{ from: 'a', to: 'b', label: 'depends_on' }],
});
const apply = (g: PlanGraph, ops: GraphMutationOperation[], version = g.graph_version) => ({
  ...applyGraphMutations(g, ops).graph,
  graph_version: version,
});

test('a graph that did not move takes the working copy as it is', () => {
  const working = apply(base, [{ op: 'set_node_attribute', id: 'a', key: 'status', value: 'done' }]);
  const out = mergeTransaction({ base, working, head: base, txId: 't' });
  assert.equal(out.merged, false);
  assert.ok(sameGraphContent(out.graph, working));
});

test('places are as small as a change: an attribute, a label, a node or edge added or removed, a metadata key', () => {
  const target = apply(base, [
    { op: 'set_node_attribute', id: 'a', key: 'status', value: 'done' },
    { op: 'add_node', node: { id: 'c' } },
    { op: 'add_edge', edge: { from: 'b', to: 'c' } },
    { op: 'patch_metadata', set: { phase: '2' } },
  ]);
  assert.deepEqual(
    changedPlaces(base, target).map((c) => c.place.join('/')),
    ['metadata/phase', 'nodes/a/attributes/status', 'nodes/c', 'edges/b/c'],
  );
});

test('what commutes and what does not', () => {
  const set = (id: string, value: string): GraphMutationOperation => ({
    op: 'set_node_attribute',
    id,
    key: 'status',
    value,
  });
  const cases: Array<[string, GraphMutationOperation[], GraphMutationOperation[], 'merge' | string]> = [
    [
      'two attributes of one node',
      [set('a', 'done')],
      [{ op: 'set_node_attribute', id: 'a', key: 'x', value: 1 }],
      'merge',
    ],
    ['one attribute, two values', [set('a', 'done')], [set('a', 'failed')], 'nodes/a/attributes/status'],
    ['one attribute, one value', [set('a', 'done')], [set('a', 'done')], 'merge'],
    ['a removed node beside a change to it', [{ op: 'remove_node', id: 'b' }], [set('b', 'done')], 'nodes/b'],
    [
      'new edges from one node',
      [
        { op: 'add_node', node: { id: 'c' } },
        { op: 'add_edge', edge: { from: 'a', to: 'c' } },
      ],
      [
        { op: 'add_node', node: { id: 'd' } },
        { op: 'add_edge', edge: { from: 'a', to: 'd' } },
      ],
      'merge',
    ],
    [
      'two metadata keys',
      [{ op: 'patch_metadata', set: { k1: 1 } }],
      [{ op: 'patch_metadata', set: { k2: 2 } }],
      'merge',
    ],
    [
      'a metadata key removed on one side, changed on the other',
      [{ op: 'patch_metadata', unset: ['owner'] }],
      [{ op: 'patch_metadata', set: { owner: 'bob' } }],
      'metadata/owner',
    ],
    [
      'a removed node beside a new edge to it',
      [{ op: 'remove_node', id: 'b' }],
      [
        { op: 'add_node', node: { id: 'c' } },
        { op: 'add_edge', edge: { from: 'b', to: 'c' } },
      ],
      'invariant',
    ],
    [
      'two edges closing a cycle',
      [
        { op: 'add_node', node: { id: 'c' } },
        { op: 'add_edge', edge: { from: 'b', to: 'c' } },
      ],
      [
        { op: 'add_node', node: { id: 'c' } },
        { op: 'add_edge', edge: { from: 'c', to: 'a' } },
      ],
      'invariant',
    ],
  ];
  for (const [what, ours, theirs, expect] of cases) {
    const working = apply(base, ours);
    const head = apply(base, theirs, 4);
    if (expect === 'merge') {
      const out = mergeTransaction({ base, working, head, txId: 't' });
      assert.equal(out.merged, true, what);
      assert.ok(sameGraphContent(out.graph, apply(head, ours)), `${what}: both changes are in`);
      continue;
    }
    assert.throws(
      () => mergeTransaction({ base, working, head, txId: 't' }),
      (e) =>
        isCoordinationError(e, 'E-TX-CONFLICT') &&
        (expect === 'invariant'
          ? Array.isArray((e as any).data.violations)
          : (e as any).data.places.includes(expect)) &&
        (e as any).data.committed_version === 4,
      what,
    );
  }
});

test('when a merge goes through, it is the same graph in either order (random plans, random edits)', () => {
  const r = seeded(29);
  let merged = 0;
  for (let round = 0; round < 300; round++) {
    const g = randomDag(r, 12, 2);
    const ids = g.nodes.map((n) => n.id);
    const edit = (): GraphMutationOperation[] =>
      Array.from({ length: 1 + r.int(3) }, (): GraphMutationOperation => {
        const id = r.pick(ids);
        switch (r.int(5)) {
          case 0:
            return { op: 'remove_node', id };
          case 1:
            return { op: 'add_edge', edge: { from: r.pick(ids), to: id } };
          case 2:
            return { op: 'add_node', node: { id: `n${r.int(4)}`, label: 'new' } };
          default:
            return { op: 'set_node_attribute', id, key: r.pick(['status', 'owner']), value: r.pick(['done', 'x']) };
        }
      });
    const working = applyGraphMutations(g, edit()).graph;
    const head = applyGraphMutations(g, edit()).graph;
    // Only edits each side could commit alone.
    if (!mergeable(working) || !mergeable(head)) continue;
    let out: { graph: PlanGraph; merged: boolean };
    try {
      out = mergeTransaction({ base: g, working: { ...working, graph_version: g.graph_version }, head, txId: 't' });
    } catch (e) {
      assert.ok(isCoordinationError(e, 'E-TX-CONFLICT'), String(e));
      continue;
    }
    merged++;
    const otherOrder = writeChanges(working, changedPlaces(g, head));
    assert.ok(sameGraphContent(out.graph, otherOrder), `round ${round}: the merge depends on the order`);
  }
  assert.ok(merged > 30, `only ${merged} rounds merged`);
});

function mergeable(g: PlanGraph): boolean {
  try {
    return mergeTransaction({ base: g, working: g, head: g, txId: 't' }) !== undefined && !hasCycle(g);
  } catch {
    return false;
  }
}

function hasCycle(g: PlanGraph): boolean {
  const ids = new Set(g.nodes.map((n) => n.id));
  if (g.edges.some((e) => !ids.has(e.from) || !ids.has(e.to) || e.from === e.to)) return true;
  const indegree = new Map(g.nodes.map((n) => [n.id, 0]));
  for (const e of g.edges) indegree.set(e.to, (indegree.get(e.to) ?? 0) + 1);
  const queue = [...indegree].filter(([, d]) => d === 0).map(([id]) => id);
  let seen = 0;
  while (queue.length) {
    const id = queue.pop()!;
    seen++;
    for (const e of g.edges.filter((x) => x.from === id)) {
      const d = indegree.get(e.to)! - 1;
      indegree.set(e.to, d);
      if (d === 0) queue.push(e.to);
    }
  }
  return seen !== g.nodes.length;
}
