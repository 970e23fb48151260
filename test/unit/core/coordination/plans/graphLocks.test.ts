import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  acquireGraphLock,
  assertCanMutate,
  isLockActive,
  LOCK_TTL_DEFAULT_MS,
  releaseGraphLock,
} from '../../../../../src/core/coordination/plans/graphLocks';
import { isCoordinationError } from '../../../../../src/core/coordination/coordinationErrors';

test('acquire, refresh by the same holder keeps lock_id, another holder is refused', () => {
  const first = acquireGraphLock(null, { graph_id: 'g', holder: 'alice', ttl_ms: 1000, now: 100, newLockId: 'L1' });
  assert.equal(first.outcome, 'acquired');
  assert.deepEqual(first.lock, {
    lock_id: 'L1',
    graph_id: 'g',
    holder: 'alice',
    acquired_at: 100,
    refreshed_at: 100,
    ttl_ms: 1000,
    expires_at: 1100,
  });
  const again = acquireGraphLock(first.lock, { graph_id: 'g', holder: ' alice ', now: 600, newLockId: 'L2' });
  assert.equal(again.outcome, 'refreshed');
  assert.deepEqual(
    [again.lock.lock_id, again.lock.acquired_at, again.lock.refreshed_at, again.lock.expires_at],
    ['L1', 100, 600, 1600],
    'a refresh without ttl keeps the lifetime',
  );
  assert.throws(
    () => acquireGraphLock(again.lock, { graph_id: 'g', holder: 'bob', now: 1599, newLockId: 'L3' }),
    (e) =>
      isCoordinationError(e, 'E-LOCK-HELD') &&
      (e as any).data.holder === 'alice' &&
      (e as any).code === 'InvalidStatus',
  );
  const bob = acquireGraphLock(again.lock, { graph_id: 'g', holder: 'bob', now: 1600, newLockId: 'L3' });
  assert.deepEqual(
    [bob.outcome, bob.lock.lock_id, bob.lock.holder],
    ['acquired', 'L3', 'bob'],
    'an expired lock counts as absent',
  );
  const dflt = acquireGraphLock(null, { graph_id: 'g', holder: 'x', now: 0, newLockId: 'L' });
  assert.equal(dflt.lock.expires_at, LOCK_TTL_DEFAULT_MS);
});

test('unlock: expired:true when late, E-LOCK-NOT-FOUND for an unknown id', () => {
  const lock = acquireGraphLock(null, { graph_id: 'g', holder: 'a', ttl_ms: 10, now: 0, newLockId: 'L' }).lock;
  assert.equal(releaseGraphLock(lock, 'L', 9).expired, false);
  const late = releaseGraphLock(lock, 'L', 10);
  assert.deepEqual(late, { lock_id: 'L', graph_id: 'g', holder: 'a', released_at: 10, expired: true, expires_at: 10 });
  assert.throws(
    () => releaseGraphLock(lock, 'other', 5),
    (e) => isCoordinationError(e, 'E-LOCK-NOT-FOUND'),
  );
  assert.throws(
    () => releaseGraphLock(null, 'L', 5),
    (e) => isCoordinationError(e, 'E-LOCK-NOT-FOUND'),
  );
});

test("mutations under another holder's lock are refused with E-GRAPH-MUTATION-LOCKED", () => {
  const lock = acquireGraphLock(null, { graph_id: 'g', holder: 'alice', ttl_ms: 100, now: 0, newLockId: 'L' }).lock;
  assert.doesNotThrow(() => assertCanMutate(lock, 'alice', 50));
  assert.doesNotThrow(() => assertCanMutate(null, undefined, 50));
  for (const owner of ['bob', null, undefined]) {
    assert.throws(
      () => assertCanMutate(lock, owner, 50),
      (e) => isCoordinationError(e, 'E-GRAPH-MUTATION-LOCKED') && (e as any).data.lock_id === 'L',
    );
  }
  assert.doesNotThrow(() => assertCanMutate(lock, 'bob', 100), 'expired at expires_at');
  assert.equal(isLockActive(lock, 99), true);
  assert.equal(isLockActive({ ...lock, expires_at: null }, 1e15), true);
});
