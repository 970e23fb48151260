import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertStorableBatch,
  assertStorableValue,
  BB_VALUE_MAX_BYTES,
  checkStorableValue,
  compareForQuery,
  isEntryVisible,
  matchesBlackboardQuery,
  namespaceOf,
  nextEntry,
  normaliseTags,
  toEntrySnapshot,
} from '../../../../../src/core/coordination/blackboard/blackboardRules';
import { blackboardEntryOutput } from '../../../../../src/core/coordination/blackboard/blackboardContracts';
import { blackboardEntrySnapshotOutput } from '../../../../../src/core/coordination/resources/resourceContracts';
import { isCoordinationError } from '../../../../../src/core/coordination/coordinationErrors';

test('storable values: plain JSON only, bounded, with the path of the first problem', () => {
  for (const ok of [null, 0, -1.5, '', 'x', true, [], {}, { a: [1, { b: 'c' }] }, Object.create(null), 'é😀']) {
    assert.equal(checkStorableValue(ok).ok, true, JSON.stringify(ok));
  }
  const shared = { x: 1 };
  assert.equal(checkStorableValue({ a: shared, b: shared }).ok, true, 'a shared reference is not a cycle');
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = { back: cyclic };
  const deep = JSON.parse('['.repeat(70) + ']'.repeat(70));
  const cases: Array<[unknown, string, string]> = [
    [() => 1, 'function', ''],
    [{ f: () => 1 }, 'function', '.f'],
    [10n, 'bigint', ''],
    [{ a: [1, 2n] }, 'bigint', '.a[1]'],
    [Symbol('s'), 'symbol', ''],
    [undefined, 'undefined', ''],
    [[undefined], 'undefined', '[0]'],
    [NaN, 'non_finite_number', ''],
    [{ n: Infinity }, 'non_finite_number', '.n'],
    [cyclic, 'cycle', '.self.back'],
    [new Date(0), 'unsupported_type', ''],
    [{ m: new Map() }, 'unsupported_type', '.m'],
    [deep, 'too_deep', '[0]'.repeat(64)],
    ['x'.repeat(BB_VALUE_MAX_BYTES), 'too_large', ''],
  ];
  for (const [value, problem, path] of cases) {
    const c = checkStorableValue(value);
    assert.equal(c.ok, false, problem);
    if (!c.ok) assert.deepEqual([c.problem, c.path], [problem, path]);
  }
  assert.equal(
    checkStorableValue('x'.repeat(BB_VALUE_MAX_BYTES - 2)).ok,
    true,
    'the bound is on the JSON bytes, quotes included',
  );
  assert.throws(
    () => assertStorableValue('k', () => 1),
    (e) => isCoordinationError(e, 'E-BB-VALUE-INVALID') && (e as any).data.problem === 'function',
  );
});

test('a batch with one bad value is refused whole, naming the culprit index', () => {
  assert.doesNotThrow(() =>
    assertStorableBatch([
      { key: 'a', value: 1 },
      { key: 'b', value: { x: [1] } },
    ]),
  );
  assert.throws(
    () =>
      assertStorableBatch([
        { key: 'a', value: 1 },
        { key: 'b', value: { f: () => 0 }, tags: ['t'] },
        { key: 'c', value: 3n },
      ]),
    (e) => {
      const data = (e as any).data;
      return (
        isCoordinationError(e, 'E-BULK-PARTIAL') &&
        data.index === 1 &&
        data.rolled_back === true &&
        data.failures.map((f: any) => f.index).join() === '1,2' &&
        data.failures[0].entry.key === 'b' &&
        data.failures[0].path === '.f'
      );
    },
  );
});

test('expiry: visible iff expires_at is null or later than now', () => {
  assert.equal(isEntryVisible({ expires_at: null }, 1e15), true);
  assert.equal(isEntryVisible({ expires_at: 100 }, 99), true);
  assert.equal(isEntryVisible({ expires_at: 100 }, 100), false);
  const first = nextEntry(
    null,
    { key: 'plan:a', value: 1, tags: [' B', 'a', 'b'], ttl_ms: 50 },
    { now: 1000, version: 7 },
  );
  assert.deepEqual(first, {
    key: 'plan:a',
    value: 1,
    tags: ['a', 'b'],
    version: 7,
    created_at: 1000,
    updated_at: 1000,
    expires_at: 1050,
  });
  assert.equal(blackboardEntryOutput.safeParse(first).success, true);
  assert.equal(blackboardEntrySnapshotOutput.safeParse(toEntrySnapshot(first)).success, true);
  const update = nextEntry(first, { key: 'plan:a', value: 2 }, { now: 1049, version: 8 });
  assert.deepEqual([update.created_at, update.updated_at, update.expires_at, update.tags], [1000, 1049, null, []]);
  const reborn = nextEntry(first, { key: 'plan:a', value: 3 }, { now: 1050, version: 9 });
  assert.equal(reborn.created_at, 1050, 'an expired entry is absent: a write creates it anew');
});

test('queries: exact keys, key prefix, all tags (case-insensitive), expired entries never match', () => {
  const e = nextEntry(
    null,
    { key: 'plan:step1', value: 1, tags: ['ci', 'urgent'], ttl_ms: 100 },
    { now: 0, version: 1 },
  );
  const yes = [
    {},
    { keys: ['plan:step1'] },
    { key_prefix: 'plan:' },
    { tags: ['CI'] },
    { tags: ['ci', 'urgent'] },
    { key_prefix: 'plan', tags: [' urgent '] },
  ];
  const no = [{ keys: ['other'] }, { key_prefix: 'ci' }, { tags: ['ci', 'nope'] }];
  for (const q of yes) assert.equal(matchesBlackboardQuery(e, q, 50), true, JSON.stringify(q));
  for (const q of no) assert.equal(matchesBlackboardQuery(e, q, 50), false, JSON.stringify(q));
  assert.equal(matchesBlackboardQuery(e, {}, 100), false, 'expired');
  const a = { ...e, key: 'a', updated_at: 5 };
  const b = { ...e, key: 'b', updated_at: 5 };
  const c = { ...e, key: 'c', updated_at: 9 };
  assert.deepEqual(
    [b, a, c].sort(compareForQuery).map((x) => x.key),
    ['c', 'a', 'b'],
  );
  assert.deepEqual(normaliseTags(['  X', 'x', '', 'b']), ['b', 'x']);
});

test('namespaces come from the text before the first separator', () => {
  const cases: Array<[string, string]> = [
    ['plan:step1', 'plan'],
    ['ci/build', 'ci'],
    ['a|b', 'a'],
    ['a/b:c', 'a'],
    ['plain', 'plain'],
    [':lead', ':lead'],
    ['x::y', 'x'],
  ];
  for (const [key, ns] of cases) assert.equal(namespaceOf(key), ns, key);
});
