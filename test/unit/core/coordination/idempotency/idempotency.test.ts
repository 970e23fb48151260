import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  canonicalJson,
  decideIdempotency,
  fingerprintArguments,
  idempotencyCacheKey,
  IDEMPOTENCY_WINDOW_MS,
  newIdempotencyRecord,
  replayedEventKind,
  withIdempotencyEnvelope,
} from '../../../../../src/core/coordination/idempotency/idempotency';
import { isCoordinationError } from '../../../../../src/core/coordination/coordinationErrors';

test('the fingerprint ignores key order, the idempotency key and op_id, and nothing else', () => {
  const a = fingerprintArguments({
    graph_id: 'g',
    operations: [{ op: 'remove_node', id: 'x' }],
    idempotency_key: 'k1',
    op_id: 'o1',
  });
  const b = fingerprintArguments({
    op_id: 'o2',
    operations: [{ id: 'x', op: 'remove_node' }],
    graph_id: 'g',
    idempotency_key: 'k2',
    note: undefined,
  });
  assert.equal(a, b);
  assert.match(a, /^[0-9a-f]{64}$/);
  assert.notEqual(a, fingerprintArguments({ graph_id: 'g', operations: [{ op: 'remove_node', id: 'y' }] }));
  assert.notEqual(fingerprintArguments({ xs: [1, 2] }), fingerprintArguments({ xs: [2, 1] }), 'array order matters');
  assert.equal(canonicalJson({ b: 1, a: { d: [undefined], c: null } }), '{"a":{"c":null,"d":[null]},"b":1}');
});

test('execute, replay, conflict, expiry', () => {
  const call = { tool: 'graph_batch_mutate', key: 'k', fingerprint: 'f1', now: 1000 };
  assert.deepEqual(decideIdempotency(null, call), { action: 'execute' });
  const record = newIdempotencyRecord(call, { committed_version: 3 });
  assert.deepEqual([record.cache_key, record.expires_at], ['graph_batch_mutate:k', 1000 + IDEMPOTENCY_WINDOW_MS]);
  const replay = decideIdempotency(record, { ...call, now: 5000 });
  assert.equal(replay.action, 'replay');
  assert.deepEqual(replay.action === 'replay' && replay.result, { committed_version: 3 });
  assert.throws(
    () => decideIdempotency(record, { ...call, fingerprint: 'f2', now: 5000 }),
    (e) =>
      isCoordinationError(e, 'E-IDEMPOTENCY-CONFLICT') &&
      (e as any).data.idempotency_key === 'k' &&
      (e as any).code === 'ValidationError',
  );
  assert.deepEqual(
    decideIdempotency(record, { ...call, fingerprint: 'f2', now: record.expires_at }),
    { action: 'execute' },
    'an expired key is free again',
  );
  assert.equal(idempotencyCacheKey(' BB_SET ', 'K'), 'bb_set:K');
});

test('the replay envelope and the replayed event kind', () => {
  assert.deepEqual(withIdempotencyEnvelope({ x: 1 }, 'k', true), { x: 1, idempotent: true, idempotency_key: 'k' });
  assert.deepEqual(withIdempotencyEnvelope({ x: 1 }, undefined, false), {
    x: 1,
    idempotent: false,
    idempotency_key: null,
  });
  assert.equal(replayedEventKind('graph_batch_mutate'), 'graph_batch_mutate_replayed');
});
