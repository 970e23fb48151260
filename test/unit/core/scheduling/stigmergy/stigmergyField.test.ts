import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerError } from '../../../../../src/core/errors';
import {
  batchMark,
  createField,
  decay,
  fieldPoints,
  mark,
  nodeSums,
  nodeTotal,
  removeMarks,
} from '../../../../../src/core/scheduling/stigmergy/stigmergyField';
import type { StigMarkEntry, StigmergyField } from '../../../../../src/core/scheduling/stigmergy/stigmergyField';
import {
  stigBatchResult,
  stigDecayResult,
  stigMarkResult,
} from '../../../../../src/core/scheduling/stigmergy/stigmergyContracts';
import { seededRandom } from '../../../../helpers/seededRandom';

/** Everything observable about a field, as plain JSON. */
function dump(field: StigmergyField): unknown {
  const byKey = (a: [string, unknown], b: [string, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  const points = fieldPoints(field)
    .map((p): [string, unknown] => [`${p.node_id} ${p.type}`, p])
    .sort(byKey);
  return { config: field.config, size: field.points.size, points, sums: [...nodeSums(field)].sort(byKey) };
}

test('marks accumulate per (node, type); types ignore case; paths are normalised', () => {
  let field = createField();
  const first = mark(field, { node_id: 'src/auth/login.ts', type: 'Scope:Task-1', intensity: 5 }, 1000);
  field = first.field;
  assert.deepEqual(first.change, {
    point: { node_id: 'src/auth/login.ts', type: 'scope:task-1', intensity: 5, updated_at: 1000 },
    node_total: { node_id: 'src/auth/login.ts', intensity: 5, updated_at: 1000 },
  });
  const second = mark(field, { node_id: './src\\auth//login.ts', type: ' scope:task-1 ', intensity: 3 }, 1500);
  assert.equal(second.change.point.intensity, 8);
  assert.equal(second.change.point.updated_at, 1500);
  const third = mark(second.field, { node_id: 'src/auth/login.ts', type: 'changed:task-1', intensity: 2 }, 1600);
  assert.equal(third.change.node_total.intensity, 10, 'the node total sums every type');
  assert.equal(third.field.points.size, 2);
  assert.equal(field.points.size, 1, 'the input field is never changed');
  stigMarkResult.parse(third.change);
});

test('a bounded field clamps marks and totals to its maximum', () => {
  let field = createField({ min_intensity: 0.5, max_intensity: 5 });
  field = mark(field, { node_id: 'a', type: 'load', intensity: 2 }, 0).field;
  const clamped = mark(field, { node_id: 'a', type: 'load', intensity: 4 }, 0);
  assert.equal(clamped.change.point.intensity, 5);
  const other = mark(clamped.field, { node_id: 'a', type: 'alert', intensity: 3 }, 0);
  assert.equal(other.change.node_total.intensity, 5, 'node total capped too');
  assert.throws(
    () => createField({ min_intensity: 5, max_intensity: 5 }),
    (e: unknown) => LedgerError.is(e, 'ValidationError'),
  );
});

test('bad marks are refused with a coded ValidationError', () => {
  const field = createField();
  const code = (entry: StigMarkEntry) => {
    try {
      mark(field, entry, 0);
      return 'accepted';
    } catch (e) {
      return LedgerError.is(e, 'ValidationError') ? (e.data?.error as string) : 'other';
    }
  };
  assert.equal(code({ node_id: 'a', type: '  ', intensity: 1 }), 'E-STIG-TYPE');
  assert.equal(code({ node_id: ' ./ ', type: 't', intensity: 1 }), 'E-STIG-NODE');
  assert.equal(code({ node_id: 'a', type: 't', intensity: 0 }), 'E-STIG-INTENSITY');
  assert.equal(code({ node_id: 'a', type: 't', intensity: Number.NaN }), 'E-STIG-INTENSITY');
  assert.equal(code({ node_id: 'a', type: 't', intensity: -1 }), 'E-STIG-INTENSITY');
});

test('a batch applies every entry in order and reports each change', () => {
  const field = createField();
  const { field: next, changes } = batchMark(
    field,
    [
      { node_id: 'src/a.ts', type: 'scope:task-1', intensity: 1 },
      { node_id: 'src/a.ts', type: 'scope:task-1', intensity: 2 },
      { node_id: 'src/b.ts', type: 'scope:task-2', intensity: 4 },
    ],
    10,
  );
  assert.deepEqual(
    changes.map((c) => [c.point.node_id, c.point.intensity, c.node_total.intensity]),
    [
      ['src/a.ts', 1, 1],
      ['src/a.ts', 3, 3],
      ['src/b.ts', 4, 4],
    ],
  );
  assert.equal(next.points.size, 2);
  stigBatchResult.parse({ changes });
});

test('property: a random batch with one bad entry is refused whole and never changes the field', () => {
  const random = seededRandom(99);
  const nodes = ['src', 'src/a.ts', 'src/b.ts', 'docs/**', 'README.md', 'lib/x'];
  const types = ['scope:task-1', 'changed:task-1', 'scope:task-2', 'load'];
  const bad: StigMarkEntry[] = [
    { node_id: 'a', type: '', intensity: 1 },
    { node_id: '', type: 't', intensity: 1 },
    { node_id: 'a', type: 't', intensity: 0 },
    { node_id: 'a', type: 't', intensity: -3 },
    { node_id: 'a', type: 't', intensity: Number.POSITIVE_INFINITY },
    { node_id: 'a', type: 't', intensity: Number.NaN },
  ];
  const entry = (): StigMarkEntry => ({
    node_id: nodes[Math.floor(random() * nodes.length)],
    type: types[Math.floor(random() * types.length)],
    intensity: 0.01 + random() * 50,
  });
  let field = createField({ half_life_ms: random() < 0.5 ? 1000 : null });
  for (let round = 0; round < 300; round++) {
    field = batchMark(field, Array.from({ length: 1 + Math.floor(random() * 10) }, entry), round * 100).field;
    const before = JSON.stringify(dump(field));
    const size = 1 + Math.floor(random() * 200);
    const entries = Array.from({ length: size }, entry);
    const badAt = Math.floor(random() * size);
    entries[badAt] = bad[Math.floor(random() * bad.length)];
    let refused: unknown = null;
    try {
      batchMark(field, entries, round * 100 + 50);
    } catch (e) {
      refused = e;
    }
    assert.ok(LedgerError.is(refused, 'ValidationError'), 'the batch is refused');
    assert.equal(refused.data?.error, 'E-BULK-PARTIAL');
    assert.equal(refused.data?.rolled_back, true);
    const failures = refused.data?.failures as { index: number }[];
    assert.deepEqual(
      failures.map((f) => f.index),
      [badAt],
    );
    assert.equal(JSON.stringify(dump(field)), before, 'the field is exactly as it was');
  }
});

test('property: after k half-lives a mark is I / 2^k, decayed at once or step by step', () => {
  const random = seededRandom(5);
  for (let round = 0; round < 200; round++) {
    const intensity = 1 + random() * 9999;
    const halfLife = 1 + Math.floor(random() * 86_400_000);
    const k = Math.floor(random() * 12);
    const start = Math.floor(random() * 1e9);
    const field = mark(createField(), { node_id: 'src/x.ts', type: 'scope:task-9', intensity }, start).field;
    const once = decay(field, halfLife, start + k * halfLife);
    const expected = intensity / 2 ** k;
    const got = nodeTotal(once.field, 'src/x.ts')?.intensity ?? 0;
    assert.ok(Math.abs(got - expected) <= 1e-9 * intensity, `once: ${got} vs ${expected}`);
    let stepped = field;
    for (let i = 1; i <= k; i++) stepped = decay(stepped, halfLife, start + i * halfLife).field;
    const steppedValue = nodeTotal(stepped, 'src/x.ts')?.intensity ?? 0;
    assert.ok(Math.abs(steppedValue - expected) <= 1e-9 * intensity, `stepped: ${steppedValue} vs ${expected}`);
  }
});

test('decay evaporates negligible marks, reports every change and keeps marks already at now', () => {
  let field = createField();
  field = mark(field, { node_id: 'a', type: 'scope:task-1', intensity: 8 }, 0).field;
  field = mark(field, { node_id: 'b', type: 'scope:task-2', intensity: 1 }, 0).field;
  field = mark(field, { node_id: 'c', type: 'scope:task-3', intensity: 1 }, 20_000).field;
  const { field: after, changes } = decay(field, 1000, 20_000);
  assert.deepEqual(
    changes.map((c) => [c.point.node_id, c.point.intensity]),
    [
      ['a', 8 / 2 ** 20],
      ['b', 0],
    ],
    'b fell under the floor (1e-6) and evaporated; c was marked at now',
  );
  assert.equal(after.points.size, 2);
  assert.equal(nodeTotal(after, 'b'), undefined);
  assert.equal(nodeTotal(after, 'c')?.intensity, 1);
  stigDecayResult.parse({ changes });
  assert.throws(
    () => decay(field, 0, 1),
    (e: unknown) => LedgerError.is(e, 'ValidationError'),
  );
});

test('with a field half-life, marking an old point decays it first instead of reviving it', () => {
  let field = createField({ half_life_ms: 1000 });
  field = mark(field, { node_id: 'a', type: 't', intensity: 8 }, 0).field;
  assert.equal(mark(field, { node_id: 'a', type: 't', intensity: 1 }, 2000).change.point.intensity, 3);
  const plain = mark(createField(), { node_id: 'a', type: 't', intensity: 8 }, 0).field;
  assert.equal(
    mark(plain, { node_id: 'a', type: 't', intensity: 1 }, 2000).change.point.intensity,
    9,
    'without one, marks simply add up',
  );
});

test('removed marks report intensity 0; points round-trip through plain arrays', () => {
  let field = createField({ max_intensity: 100 });
  field = batchMark(
    field,
    [
      { node_id: 'a', type: 'scope:task-1', intensity: 3 },
      { node_id: 'a', type: 'scope:task-2', intensity: 4 },
    ],
    5,
  ).field;
  const { field: after, changes } = removeMarks(field, (p) => p.type === 'scope:task-1', 9);
  assert.deepEqual(changes, [
    {
      point: { node_id: 'a', type: 'scope:task-1', intensity: 0, updated_at: 9 },
      node_total: { node_id: 'a', intensity: 4, updated_at: 5 },
    },
  ]);
  const copy = createField(after.config, fieldPoints(after));
  assert.deepEqual(dump(copy), dump(after));
  assert.equal(removeMarks(after, () => false, 10).field, after, 'nothing removed: the same field');
});
