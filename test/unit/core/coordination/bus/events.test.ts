import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertCursorRetained,
  eventResourceUris,
  matchesEventFilter,
  newCoordinationEvent,
  pageEvents,
  toBusEventRecord,
} from '../../../../../src/core/coordination/bus/eventRecords';
import type { CoordinationEvent } from '../../../../../src/core/coordination/bus/eventRecords';
import { eventCategory, toEventKind } from '../../../../../src/core/events/eventKinds';
import {
  parseSseStream,
  renderSseStream,
  serialiseForSse,
  toSseMessage,
} from '../../../../../src/core/coordination/bus/sse';
import { busEventOutput } from '../../../../../src/core/coordination/bus/eventContracts';
import { runEventOutput } from '../../../../../src/core/coordination/resources/resourceContracts';
import { isCoordinationError } from '../../../../../src/core/coordination/coordinationErrors';
import { nastyString, seeded } from '../plans/random';

const ev = (seq: number, kind: string, extra: Partial<CoordinationEvent> = {}) =>
  newCoordinationEvent({ seq, ts: 1_700_000_000_000 + seq, kind, ...extra });

test('correlation ids are always present, null when unknown, in both spellings', () => {
  const e = ev(1, 'task.started', { runId: 'wf-1', payload: { title: 'x' } });
  assert.deepEqual(e, {
    seq: 1,
    ts: 1_700_000_000_001,
    kind: 'task.started',
    level: 'info',
    jobId: null,
    runId: 'wf-1',
    opId: null,
    graphId: null,
    nodeId: null,
    childId: null,
    payload: { title: 'x' },
  });
  assert.equal(runEventOutput.safeParse(e).success, true, 'the camelCase form is the resources_watch record');
  const bus = toBusEventRecord(e);
  assert.deepEqual(bus, {
    seq: 1,
    ts: 1_700_000_000_001,
    cat: 'task',
    kind: 'TASK.STARTED',
    level: 'info',
    job_id: null,
    run_id: 'wf-1',
    op_id: null,
    graph_id: null,
    node_id: null,
    child_id: null,
    msg: 'task.started',
    data: { title: 'x' },
  });
  assert.equal(busEventOutput.safeParse(bus).success, true);
  assert.deepEqual(['graph_batch_mutate_replayed', 'bb:set', 'HEARTBEAT', ' plan.x '].map(eventCategory), [
    'graph',
    'bb',
    'heartbeat',
    'plan',
  ]);
});

test('the events_subscribe filter', () => {
  const e = ev(5, 'graph_patch', { graphId: 'g1', runId: 'wf-2', nodeId: 'n', level: 'warn' });
  const yes = [
    {},
    { kinds: ['GRAPH_PATCH'] },
    { kinds: ['x', 'graph_patch'] },
    { cats: ['Graph'] },
    { levels: ['warn' as const] },
    { graph_id: 'g1', run_id: 'wf-2', node_id: 'n' },
    { uri_prefix: 'sc://graphs/g' },
    { uri_prefix: 'sc://runs/wf-2/' },
  ];
  const no = [
    { kinds: ['graph_diff'] },
    { cats: ['bb'] },
    { levels: ['error' as const] },
    { graph_id: 'g2' },
    { op_id: 'o' },
    { job_id: 'j' },
    { child_id: 'c' },
    { uri_prefix: 'sc://children/' },
    { graph_id: 'g1', run_id: 'other' },
  ];
  for (const f of yes) assert.equal(matchesEventFilter(e, f), true, JSON.stringify(f));
  for (const f of no) assert.equal(matchesEventFilter(e, f), false, JSON.stringify(f));
  assert.deepEqual(eventResourceUris(ev(1, 'x', { graphId: 'g', runId: 'r', childId: 'c' })), [
    'sc://graphs/g',
    'sc://runs/r/events',
    'sc://children/c/logs',
  ]);
  assert.deepEqual(eventResourceUris(ev(1, 'x', { graphId: 'has/slash' })), [], 'ids that cannot be URIs are skipped');
});

test('paging never skips nor repeats an event, whatever the filter and limit', () => {
  const r = seeded(9);
  for (let round = 0; round < 50; round++) {
    const log = Array.from({ length: 1 + r.int(80) }, (_, i) =>
      ev(i + 1 + r.int(2) * 0, r.pick(['a.x', 'b.y', 'c.z']), { runId: r.pick(['r1', 'r2', null]) }),
    );
    const filter = r.pick([{}, { cats: ['a'] }, { run_id: 'r1' }, { kinds: ['B.Y'], run_id: 'r2' }]);
    const limit = 1 + r.int(7);
    const seen: number[] = [];
    let cursor = 0;
    for (let guard = 0; guard < 200; guard++) {
      const page = pageEvents(log, { from_seq: cursor, limit, filter });
      assert.ok(page.events.length <= limit);
      seen.push(...page.events.map((e) => e.seq));
      if (page.next_seq === cursor) break;
      assert.ok(page.next_seq > cursor);
      cursor = page.next_seq;
    }
    assert.deepEqual(
      seen,
      log.filter((e) => matchesEventFilter(e, filter)).map((e) => e.seq),
    );
    assert.equal(cursor, log[log.length - 1].seq, 'the cursor ends on the last event, filtered or not');
  }
});

test('a cursor behind the retained history is told so', () => {
  assert.doesNotThrow(() => assertCursorRetained(0, 500));
  assert.doesNotThrow(() => assertCursorRetained(499, 500));
  assert.doesNotThrow(() => assertCursorRetained(10, null));
  assert.throws(
    () => assertCursorRetained(10, 500),
    (e) => isCoordinationError(e, 'E-EVT-CURSOR-EXPIRED') && (e as any).data.oldest_seq === 500,
  );
});

test('SSE: id is the seq, event the upper-cased kind, data one line that parses back to the JSON record', () => {
  const record = toBusEventRecord(
    ev(42, 'cnp.watcher_telemetry', { payload: { reason: 'line1\nline2\r\u2028\u2029end' } }),
  );
  const m = toSseMessage(record);
  assert.equal(m.id, '42');
  assert.equal(m.event, 'CNP.WATCHER_TELEMETRY');
  assert.doesNotMatch(m.data, /[\r\n\u2028\u2029]/);
  assert.match(m.data, /\\u2028\\u2029/);
  assert.deepEqual(JSON.parse(m.data), record);
  assert.equal(renderSseStream([m]), `id: 42\nevent: CNP.WATCHER_TELEMETRY\ndata: ${m.data}\n\n`);
  assert.equal(serialiseForSse(undefined), 'null');
});

test('SSE and JSON carry exactly the same fields (random strings with CR, LF, U+2028, U+2029)', () => {
  const r = seeded(77);
  for (let i = 0; i < 500; i++) {
    const records = Array.from({ length: 1 + r.int(4) }, (_, k) =>
      toBusEventRecord(
        ev(i * 10 + k + 1, r.pick(['task.started', 'bb_set', 'graph.patch']), {
          runId: r.next() < 0.5 ? nastyString(r) : null,
          nodeId: nastyString(r),
          payload: {
            text: nastyString(r, 60),
            list: [nastyString(r), r.int(9)],
            nested: { [nastyString(r, 5) || 'k']: nastyString(r) },
          },
        }),
      ),
    );
    const messages = records.map(toSseMessage);
    for (const m of messages) assert.doesNotMatch(m.data, /[\r\n\u2028\u2029]/);
    const parsed = parseSseStream(renderSseStream(messages));
    assert.equal(parsed.length, records.length);
    parsed.forEach((p, k) => {
      assert.equal(p.id, String(records[k].seq));
      assert.equal(p.event, records[k].kind);
      assert.deepEqual(JSON.parse(p.data), JSON.parse(JSON.stringify(records[k])), 'the SSE data is the JSON record');
      assert.deepEqual(Object.keys(JSON.parse(p.data)), Object.keys(records[k]));
    });
  }
});

test('a kind made at run time must belong to a known family', () => {
  assert.equal(toEventKind('bb_set_replayed'), 'bb_set_replayed');
  assert.throws(() => toEventKind('stig_set_replayed'), /belongs to no family/);
  assert.throws(() => toEventKind('task'), /belongs to no family/, 'a family alone is no kind');
});
