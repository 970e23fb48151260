import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';

/** The blackboard tools of the orchestrator family, through the real SDK client against dist/cli.js. */

interface Entry {
  key: string;
  value: unknown;
  tags: string[];
  version: number;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
}

const entryFields = ['created_at', 'expires_at', 'key', 'tags', 'updated_at', 'value', 'version'];

test('bb_set / bb_get / bb_query / bb_delete round trip with the contract fields', async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator']);
  try {
    const set = await c.call<Entry & { op_id: string; idempotent: boolean; idempotency_key: string | null }>('bb_set', {
      key: 'plan:step1',
      value: { owner: 'coder', done: false },
      tags: ['Plan', 'todo'],
      op_id: 'op-1',
    });
    assert.deepEqual(Object.keys(set).sort(), [...entryFields, 'idempotency_key', 'idempotent', 'op_id'].sort());
    assert.equal(set.op_id, 'op-1');
    assert.deepEqual(set.value, { owner: 'coder', done: false });
    assert.deepEqual(set.tags, ['plan', 'todo']);
    assert.equal(set.expires_at, null);
    assert.equal(set.idempotent, false);
    assert.equal(set.idempotency_key, null);
    assert.equal(set.created_at, set.updated_at);

    const got = await c.call<{ op_id: string; entry: Entry }>('bb_get', { key: 'plan:step1' });
    assert.deepEqual(Object.keys(got).sort(), ['entry', 'op_id']);
    assert.ok(got.op_id.length > 0, 'an operation id is made up when none is passed');
    const { op_id: _op, idempotent: _i, idempotency_key: _k, ...stored } = set;
    assert.deepEqual(got.entry, stored);

    const other = await c.call<Entry>('bb_set', { key: 'ci/build', value: 42, ttl_ms: 60_000 });
    assert.equal(other.expires_at, other.updated_at + 60_000);

    const all = await c.call<{ op_id: string; entries: Entry[]; next_cursor: number | null }>('bb_query', {});
    assert.deepEqual(Object.keys(all).sort(), ['entries', 'next_cursor', 'op_id']);
    assert.deepEqual(new Set(all.entries.map((e) => e.key)), new Set(['plan:step1', 'ci/build']));
    assert.equal(all.next_cursor, all.entries[all.entries.length - 1].version);
    const byTag = await c.call<{ entries: Entry[] }>('bb_query', { tags: ['PLAN'] });
    assert.deepEqual(
      byTag.entries.map((e) => e.key),
      ['plan:step1'],
    );
    const byPrefix = await c.call<{ entries: Entry[]; next_cursor: number | null }>('bb_query', { key_prefix: 'ci/' });
    assert.deepEqual(
      byPrefix.entries.map((e) => e.key),
      ['ci/build'],
    );
    const none = await c.call<{ entries: Entry[]; next_cursor: number | null }>('bb_query', { key_prefix: 'nothing:' });
    assert.deepEqual(none.entries, []);
    assert.equal(none.next_cursor, null);

    const del = await c.call<{ op_id: string; key: string; deleted: boolean; version: number | null }>('bb_delete', {
      key: 'plan:step1',
    });
    assert.deepEqual(Object.keys(del).sort(), ['deleted', 'key', 'op_id', 'version']);
    assert.equal(del.deleted, true);
    assert.ok(del.version !== null && del.version > other.version);
    const again = await c.call<{ deleted: boolean; version: number | null }>('bb_delete', { key: 'plan:step1' });
    assert.equal(again.deleted, false);
    assert.equal(again.version, null);
    const gone = await c.fail('bb_get', { key: 'plan:step1' });
    assert.equal(gone.data?.error, 'E-BB-NOTFOUND');

    const first = await c.call<Entry & { idempotent: boolean }>('bb_set', {
      key: 'k',
      value: 1,
      idempotency_key: 'retry-1',
    });
    const replay = await c.call<Entry & { idempotent: boolean; idempotency_key: string }>('bb_set', {
      key: 'k',
      value: 1,
      idempotency_key: 'retry-1',
    });
    assert.equal(replay.idempotent, true);
    assert.equal(replay.idempotency_key, 'retry-1');
    assert.equal(replay.version, first.version, 'the replay did not write again');
    assert.equal(
      (await c.fail('bb_set', { key: 'k', value: 2, idempotency_key: 'retry-1' })).data?.error,
      'E-IDEMPOTENCY-CONFLICT',
    );
  } finally {
    await c.close();
  }
});

test('a refused bad input changes nothing', async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator']);
  try {
    await c.call('bb_set', { key: 'a', value: 'kept' });
    const before = await c.call<{ events: unknown[]; next_version: number }>('bb_watch', { wait_ms: 0 });
    await c.fail('bb_set', { key: '', value: 1 });
    await c.fail('bb_set', { key: 'a', value: 'x', ttl_ms: -5 });
    await c.fail('bb_set', { key: 'a', value: 'x', unknown_field: true });
    await c.fail('bb_batch_set', {
      entries: [
        { key: 'b', value: 1 },
        { key: '', value: 2 },
      ],
    });
    await c.fail('bb_set', { key: 'a', value: 'x'.repeat(70_000) });
    await c.fail('bb_watch', { wait_ms: 60_000 });
    const after = await c.call<{ events: unknown[]; next_version: number }>('bb_watch', {
      start_version: before.next_version,
      wait_ms: 0,
    });
    assert.deepEqual(after.events, [], 'no change was recorded');
    assert.equal(after.next_version, before.next_version);
    assert.equal((await c.call<{ entry: Entry }>('bb_get', { key: 'a' })).entry.value, 'kept');
    assert.equal((await c.fail('bb_get', { key: 'b' })).data?.error, 'E-BB-NOTFOUND');
  } finally {
    await c.close();
  }
});

test('bb_watch on one server returns promptly when another server on the same workspace writes', async () => {
  const workspace = tempRepo();
  const a = await connect(workspace, ['--enable-orchestrator']);
  const b = await connect(workspace, ['--enable-orchestrator']);
  try {
    const start = (await b.call<{ next_version: number }>('bb_watch', { wait_ms: 0 })).next_version;
    const started = Date.now();
    const waiting = b.call<{
      events: Array<{
        version: number;
        kind: string;
        key: string;
        timestamp: number;
        reason: string | null;
        entry: Entry | null;
        previous: Entry | null;
      }>;
      next_version: number;
    }>('bb_watch', { start_version: start, wait_ms: 30_000 });
    await new Promise((r) => setTimeout(r, 300));
    const written = await a.call<Entry>('bb_set', { key: 'signal:go', value: { from: 'A' } });
    const seen = await waiting;
    assert.ok(Date.now() - started < 5_000, `woke on the write, not the timeout (${Date.now() - started} ms)`);
    assert.equal(seen.events.length, 1);
    const ev = seen.events[0];
    assert.deepEqual(Object.keys(ev).sort(), ['entry', 'key', 'kind', 'previous', 'reason', 'timestamp', 'version']);
    assert.equal(ev.kind, 'set');
    assert.equal(ev.key, 'signal:go');
    assert.equal(ev.version, written.version);
    assert.equal(ev.reason, null);
    assert.equal(ev.previous, null);
    const {
      op_id: _op,
      idempotent: _i,
      idempotency_key: _k,
      ...stored
    } = written as Entry & { op_id: string; idempotent: boolean; idempotency_key: string | null };
    assert.deepEqual(ev.entry, stored);
    assert.equal(ev.timestamp, written.updated_at);
    assert.equal(seen.next_version, written.version);

    await a.call('bb_set', { key: 'signal:go', value: { from: 'A', again: true } });
    await a.call('bb_delete', { key: 'signal:go' });
    const more = await b.call<{
      events: Array<{ kind: string; entry: Entry | null; previous: Entry | null }>;
      next_version: number;
    }>('bb_watch', { start_version: seen.next_version, wait_ms: 0 });
    assert.deepEqual(
      more.events.map((e) => e.kind),
      ['set', 'delete'],
    );
    assert.deepEqual(more.events[0].previous, stored);
    assert.equal(more.events[1].entry, null);
    assert.deepEqual(more.events[1].previous?.value, { from: 'A', again: true });
    const filtered = await b.call<{ events: unknown[] }>('bb_watch', {
      start_version: start,
      key_prefix: 'other:',
      wait_ms: 0,
    });
    assert.deepEqual(filtered.events, []);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
