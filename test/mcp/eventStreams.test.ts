import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';
import { parseSseStream } from '../../src/core/coordination/bus/sse';
import { eventCategories } from '../../src/core/events/eventKinds';

/** resources_* and events_subscribe across server processes, through the real SDK client against dist/cli.js. */

interface WatchResult {
  uri: string;
  kind: string;
  events: Array<Record<string, unknown> & { seq: number }>;
  next_seq: number;
  format: string;
  messages?: Array<{ id: string; event: string; data: string }>;
  stream?: string;
}
interface BusEvent {
  level?: string;
  seq: number;
  kind: string;
  cat: string;
  msg: string;
  run_id: string | null;
  op_id: string | null;
  job_id: string | null;
  graph_id: string | null;
  node_id: string | null;
  child_id: string | null;
  data: unknown;
}

test("two servers: one writes, the other's resources_watch and events_subscribe with a wait return it at once", async () => {
  const repo = tempRepo();
  const [watcher, writer] = await Promise.all([
    connect(repo, ['--enable-orchestrator']),
    connect(repo, ['--enable-orchestrator']),
  ]);
  try {
    const idle = await watcher.call<WatchResult>('resources_watch', { uri: 'sc://blackboard/team', wait_ms: 0 });
    assert.deepEqual(idle.events, []);
    const start = await watcher.call<{ next_seq: number }>('events_subscribe', { wait_ms: 0 });

    let started = Date.now();
    const waiting = watcher.call<WatchResult>('resources_watch', {
      uri: 'sc://blackboard/team',
      from_seq: idle.next_seq,
      wait_ms: 40_000,
    });
    await new Promise((r) => setTimeout(r, 300));
    const written = await writer.call<{ version: number }>('bb_set', {
      key: 'team:lead',
      value: 'ada',
      run_id: 'run-bb',
      node_id: 'n1',
    });
    const woke = await waiting;
    const elapsed = Date.now() - started;
    assert.equal(woke.events.length, 1);
    assert.equal(woke.events[0].key, 'team:lead');
    assert.equal(woke.events[0].version, written.version);
    assert.equal(woke.next_seq, written.version);
    assert.ok(elapsed < 20_000, `woke on the other server's write, not at the end of the wait (${elapsed} ms)`);

    started = Date.now();
    const subscribed = watcher.call<{ events: BusEvent[]; next_seq: number }>('events_subscribe', {
      from_seq: written.version,
      cats: ['graph'],
      wait_ms: 40_000,
    });
    await new Promise((r) => setTimeout(r, 300));
    await writer.call('graph_batch_mutate', {
      graph_id: 'plan',
      operations: [{ op: 'add_node', node: { id: 'a' } }],
      run_id: 'run-7',
      job_id: 'job-1',
    });
    const bus = await subscribed;
    assert.ok(Date.now() - started < 20_000);
    assert.equal(bus.events.length, 1);
    const [e] = bus.events;
    assert.equal(e.kind, 'GRAPH.COMMITTED');
    assert.equal(e.cat, 'graph');
    assert.equal(e.graph_id, 'plan');
    assert.equal(e.run_id, 'run-7');
    assert.equal(e.job_id, 'job-1');
    assert.ok(e.op_id, 'an operation id is made up when none is passed');
    for (const key of ['run_id', 'op_id', 'job_id', 'graph_id', 'node_id', 'child_id'])
      assert.ok(key in e, `${key} is present`);
    assert.equal(e.child_id, null);

    const all = await watcher.call<{ events: BusEvent[] }>('events_subscribe', {
      from_seq: start.next_seq,
      wait_ms: 0,
    });
    for (const ev of all.events)
      for (const key of ['run_id', 'op_id', 'job_id', 'graph_id', 'node_id', 'child_id'])
        assert.ok(key in ev, `${ev.kind}: ${key}`);
    const bbEvent = all.events.find((x) => x.kind === 'BLACKBOARD.SET');
    assert.equal(bbEvent?.run_id, 'run-bb', 'the correlation ids a call passes are stored on its events');
    assert.equal(bbEvent?.node_id, 'n1');
    const run = await watcher.call<WatchResult>('resources_watch', { uri: 'sc://runs/run-7/events', wait_ms: 0 });
    assert.deepEqual(
      run.events.map((x) => x.kind),
      ['graph.committed'],
    );
    assert.equal(run.events[0].runId, 'run-7');
  } finally {
    await Promise.all([watcher.close(), writer.close()]);
  }
});

test('SSE form: one data line per record that parses back to the JSON record, event: is the upper-cased kind', async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator']);
  try {
    const tricky = 'line1\nline2\r\u2028\u2029end';
    await c.call('bb_set', { key: 'notes:x', value: { text: tricky } });
    const json = await c.call<WatchResult>('resources_watch', { uri: 'sc://blackboard/notes', wait_ms: 0 });
    const sse = await c.call<WatchResult>('resources_watch', {
      uri: 'sc://blackboard/notes',
      wait_ms: 0,
      format: 'sse',
    });
    assert.equal(sse.format, 'sse');
    assert.deepEqual(sse.events, json.events, 'JSON and SSE carry the same records');
    assert.equal(sse.messages?.length, 1);
    const [m] = sse.messages!;
    assert.equal(m.event, 'SET');
    assert.equal(m.id, String(json.events[0].seq));
    assert.doesNotMatch(m.data, /[\r\n\u2028\u2029]/);
    assert.deepEqual(JSON.parse(m.data), json.events[0]);
    assert.deepEqual(parseSseStream(sse.stream!), sse.messages);

    const bus = await c.call<{ stream: string; events: BusEvent[] }>('events_subscribe', {
      format: 'sse',
      cats: ['blackboard'],
      wait_ms: 0,
    });
    const parsed = parseSseStream(bus.stream);
    assert.deepEqual(
      parsed.map((p) => p.event),
      bus.events.map((e) => e.kind),
    );
    assert.equal(parsed[0].event, 'BLACKBOARD.SET');
    assert.deepEqual(JSON.parse(parsed[0].data), bus.events[0]);
  } finally {
    await c.close();
  }
});

test('resources_list and resources_read: prefixes, limit bound, refusals by name', async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator']);
  try {
    await c.call('bb_set', { key: 'alpha:1', value: 1 });
    await c.call('graph_batch_mutate', { graph_id: 'g1', operations: [{ op: 'add_node', node: { id: 'a' } }] });
    const all = await c.call<{ items: Array<{ uri: string; kind: string }> }>('resources_list', {});
    assert.ok(all.items.some((i) => i.uri === 'sc://blackboard/alpha' && i.kind === 'blackboard_namespace'));
    assert.ok(all.items.some((i) => i.uri === 'sc://graphs/g1@v1' && i.kind === 'graph_version'));
    const snapshot = all.items.find((i) => i.kind === 'snapshot');
    assert.ok(snapshot, 'each committed change is a snapshot resource');
    const change = await c.call<{ payload: { state: string; baseVersion: number; finalVersion: number } }>(
      'resources_read',
      { uri: snapshot.uri },
    );
    assert.deepEqual(
      [change.payload.state, change.payload.baseVersion, change.payload.finalVersion],
      ['committed', 0, 1],
    );
    const uris = all.items.map((i) => i.uri);
    assert.deepEqual(uris, [...uris].sort(), 'URI order');
    const one = await c.call<{ items: unknown[] }>('resources_list', { prefix: 'sc://graphs/', limit: 1 });
    assert.equal(one.items.length, 1);
    const tooMany = await c.fail('resources_list', { limit: 501 });
    assert.match(tooMany.message, /limit/);
    assert.equal((await c.fail('resources_read', { uri: 'sc://nope/x' })).data?.error, 'E-RES-INVALID');
    assert.equal((await c.fail('resources_read', { uri: 'sc://graphs/missing' })).data?.error, 'E-RES-NOT-FOUND');
    assert.equal(
      (await c.fail('resources_watch', { uri: 'sc://graphs/g1', wait_ms: 0 })).data?.error,
      'E-RES-WATCH-UNSUPPORTED',
    );
  } finally {
    await c.close();
  }
});

test('feature switches: --enable-resources alone exposes the registry; mcp_info and mcp_capabilities say exactly what is on', async () => {
  const c = await connect(tempRepo(), ['--enable-resources', '--enable-locks']);
  try {
    const { tools } = await c.client.listTools();
    const names = tools.map((t) => t.name);
    for (const t of ['resources_list', 'resources_read', 'resources_watch', 'graph_lock', 'graph_unlock'])
      assert.ok(names.includes(t), t);
    for (const t of ['events_subscribe', 'bb_set', 'graph_patch', 'graph_batch_mutate'])
      assert.ok(!names.includes(t), t);
    const info = await c.call<{
      features: Record<string, boolean>;
      families: Record<string, { enabled: boolean; exposed: number }>;
      limits: { maxEventHistory: number };
    }>('mcp_info');
    assert.equal(info.features.enableResources, true);
    assert.equal(info.features.enableLocks, true);
    assert.equal(info.features.enableEventsBus, false);
    assert.equal(info.features.enableDiffPatch, false);
    assert.equal(info.features.enableOrchestrator, false);
    assert.equal(info.families.orchestrator.exposed, 5);
    assert.ok(info.limits.maxEventHistory >= 1000);
    const caps = await c.call<{ namespaces: Array<{ name: string }>; schemas: Record<string, unknown> }>(
      'mcp_capabilities',
    );
    assert.ok(caps.namespaces.some((n) => n.name === 'resources'));
    assert.ok(!caps.namespaces.some((n) => n.name === 'events-bus'));
    assert.deepEqual(Object.keys(caps.schemas).sort(), [...names].sort());
  } finally {
    await c.close();
  }
  const d = await connect(tempRepo(), ['--enable-orchestrator', '--disable-idempotency']);
  try {
    const info = await d.call<{ features: Record<string, boolean>; idempotency: { enabled: boolean } }>('mcp_info');
    assert.equal(info.features.enableIdempotency, false);
    assert.equal(info.idempotency.enabled, false);
    const first = await d.call<{ idempotent: boolean; committed_version: number }>('graph_batch_mutate', {
      graph_id: 'x',
      operations: [{ op: 'add_node', node: { id: 'a' } }],
      idempotency_key: 'k',
    });
    const again = await d.call<{ idempotent: boolean; committed_version: number }>('graph_batch_mutate', {
      graph_id: 'x',
      operations: [{ op: 'add_node', node: { id: 'a' } }],
      idempotency_key: 'k',
    });
    assert.equal(again.idempotent, false, 'keys are not remembered with idempotency off');
    assert.equal(first.committed_version, again.committed_version);
  } finally {
    await d.close();
  }
});

test('cursors across processes: 3 writing servers, a reader paging events_subscribe with waits sees every event once, in order', async () => {
  const repo = tempRepo();
  const servers = await Promise.all([0, 1, 2, 3].map(() => connect(repo, ['--enable-orchestrator'])));
  const [reader, ...writers] = servers;
  try {
    const perWriter = 8;
    const writing = Promise.all(
      writers.map(async (w, i) => {
        for (let k = 0; k < perWriter; k++) {
          if (k % 2) await w.call('bb_set', { key: `w${i}:k${k}`, value: k });
          else
            await w.call('graph_batch_mutate', {
              graph_id: `g${i}`,
              operations: [{ op: 'add_node', node: { id: `k${k}` } }],
            });
        }
      }),
    );
    const seen: BusEvent[] = [];
    let cursor = 0;
    const deadline = Date.now() + 90_000;
    while (seen.length < writers.length * perWriter && Date.now() < deadline) {
      const page = await reader.call<{ events: BusEvent[]; next_seq: number; count: number }>('events_subscribe', {
        from_seq: cursor,
        cats: ['graph', 'blackboard'],
        limit: 5,
        wait_ms: 5_000,
      });
      assert.equal(page.count, page.events.length);
      seen.push(...page.events);
      cursor = page.next_seq;
    }
    await writing;
    const seqs = seen.map((e) => e.seq);
    assert.equal(new Set(seqs).size, seqs.length, 'no event twice');
    for (let i = 1; i < seqs.length; i++) assert.ok(seqs[i] > seqs[i - 1], 'in commit order');
    assert.equal(seen.length, writers.length * perWriter, 'no event skipped');
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
});

test('idempotent race across servers: one key, one change, the same answer', async () => {
  const repo = tempRepo();
  const [a, b] = await Promise.all([
    connect(repo, ['--enable-orchestrator']),
    connect(repo, ['--enable-orchestrator']),
  ]);
  try {
    for (let round = 0; round < 3; round++) {
      const args = {
        graph_id: 'shared',
        operations: [{ op: 'add_node', node: { id: `n${round}` } }],
        idempotency_key: `round-${round}`,
      };
      const answers = await Promise.all([
        a.call<{ idempotent: boolean; committed_version: number; op_id: string }>('graph_batch_mutate', args),
        b.call<{ idempotent: boolean; committed_version: number; op_id: string }>('graph_batch_mutate', args),
      ]);
      assert.deepEqual(answers.map((x) => x.idempotent).sort(), [false, true]);
      assert.equal(answers[0].committed_version, round + 1);
      assert.equal(answers[1].committed_version, round + 1);
    }
    const replayed = await a.call<{ events: BusEvent[] }>('events_subscribe', {
      kinds: ['graph_batch_mutate_replayed'],
      wait_ms: 0,
    });
    assert.equal(replayed.events.length, 3);
    assert.equal(replayed.events[0].level, 'warn');
    const conflict = await a.fail('graph_batch_mutate', {
      graph_id: 'shared',
      operations: [{ op: 'add_node', node: { id: 'other' } }],
      idempotency_key: 'round-0',
    });
    assert.equal(conflict.data?.error, 'E-IDEMPOTENCY-CONFLICT');
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('events_subscribe: an unknown family in cats is refused with the known ones; each known one filters', async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator', '--enable-pm']);
  try {
    const refused = await c.fail('events_subscribe', { cats: ['bb', 'stig'], wait_ms: 0 });
    assert.equal(refused.code, -32007);
    assert.match(refused.message, /cats\.1/);
    assert.match(refused.message, /stigmergy/, 'the message lists the known families');
    await c.call('bb_set', { key: 'team:lead', value: 'ada' });
    await c.call('task_create', { title: 'a task' });
    const bb = await c.call<{ events: BusEvent[] }>('events_subscribe', { cats: ['blackboard'], wait_ms: 0 });
    assert.deepEqual(
      bb.events.map((e) => [e.cat, e.kind]),
      [['blackboard', 'BLACKBOARD.SET']],
    );
    const every = await c.call<{ events: BusEvent[] }>('events_subscribe', { wait_ms: 0 });
    for (const e of every.events) assert.ok((eventCategories as readonly string[]).includes(e.cat), e.cat);
  } finally {
    await c.close();
  }
});
