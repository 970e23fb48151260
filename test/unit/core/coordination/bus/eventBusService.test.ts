// The event bus, stored plan graphs and idempotent runs on both engines, several engines on one
// ledger standing for several processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BlackboardService } from '../../../../../src/core/coordination/blackboard/blackboardService';
import { EventBusService } from '../../../../../src/core/coordination/bus/eventBusService';
import { GraphService } from '../../../../../src/core/coordination/plans/graphService';
import { runIdempotent, runIdempotentOutside } from '../../../../../src/core/coordination/idempotency/idempotencyRuns';
import { isCoordinationError } from '../../../../../src/core/coordination/coordinationErrors';
import { addWorkflow, engineCases } from '../../../store/engines/engineKit';
import { KnowledgeService } from '../../../../../src/core/scheduling/knowledge/knowledgeService';

for (const engineCase of engineCases) {
  test(
    `event cursors on ${engineCase.name}: 4 writers, one paging reader, no event skipped or repeated`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const reader = new EventBusService(await ledger.open());
        const writers = await Promise.all([0, 1, 2, 3].map(async () => new BlackboardService(await ledger.open())));
        const perWriter = 15;
        const writing = Promise.all(
          writers.map(async (bb, w) => {
            for (let i = 0; i < perWriter; i++) await bb.set({ key: `w${w}:k${i}`, value: i });
          }),
        );
        const seen: number[] = [];
        const keys = new Set<string>();
        let cursor = 0;
        const deadline = Date.now() + 60_000;
        while (keys.size < writers.length * perWriter && Date.now() < deadline) {
          const page = await reader.page({
            fromSeq: cursor,
            limit: 7,
            waitMs: 2_000,
            filter: { cats: ['blackboard'] },
          });
          for (const e of page.events) {
            seen.push(e.seq);
            keys.add((e.payload as { key: string }).key);
          }
          assert.ok(page.next_seq >= cursor, 'the cursor never goes back');
          cursor = page.next_seq;
        }
        await writing;
        assert.equal(keys.size, writers.length * perWriter, 'every write was seen');
        assert.equal(seen.length, keys.size, 'none twice');
        for (let i = 1; i < seen.length; i++) assert.ok(seen[i] > seen[i - 1], 'in commit order');
        const after = await reader.page({ fromSeq: cursor, limit: 10, waitMs: 0 });
        assert.deepEqual(after.events, [], 'nothing left behind the cursor');
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `event retention on ${engineCase.name}: old coordination events go, an older cursor is told so`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const bus = new EventBusService(engine, Date.now, { maxEvents: 5, maxAgeMs: 3_600_000, maxBytes: 64 << 20 });
        const bb = new BlackboardService(engine);
        const versions: number[] = [];
        for (let i = 0; i < 12; i++) versions.push((await bb.set({ key: `k${i}`, value: i })).version);
        assert.ok((await bus.prune()) >= 7);
        assert.equal(await bus.prune(), 0, 'nothing more to drop');
        await assert.rejects(bus.page({ fromSeq: versions[0], limit: 10, waitMs: 0 }), (e) =>
          isCoordinationError(e, 'E-EVT-CURSOR-EXPIRED'),
        );
        const fromStart = await bus.page({ fromSeq: 0, limit: 100, waitMs: 0 });
        assert.deepEqual(
          fromStart.events.map((e) => e.seq),
          versions.slice(-5),
          'from the start: the kept ones',
        );
        const recent = await bus.page({ fromSeq: versions[9], limit: 10, waitMs: 0 });
        assert.deepEqual(
          recent.events.map((e) => e.seq),
          versions.slice(10),
        );
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `event retention by age on ${engineCase.name}: events older than the age go even under the count, newer ones stay`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const start = Date.now();
        let now = start;
        const clock = (): number => now;
        const bus = new EventBusService(engine, clock, { maxEvents: 1_000, maxAgeMs: 3_600_000, maxBytes: 64 << 20 });
        const bb = new BlackboardService(engine, clock);
        const old: number[] = [];
        for (let i = 0; i < 4; i++) old.push((await bb.set({ key: `old${i}`, value: i })).version);
        assert.equal(await bus.prune(), 0, 'nothing is an hour old yet');
        now = start + 2 * 3_600_000;
        const fresh: number[] = [];
        for (let i = 0; i < 3; i++) fresh.push((await bb.set({ key: `new${i}`, value: i })).version);
        assert.equal(
          await bus.prune(),
          4,
          'the four events older than an hour go, though the count is far below 1,000',
        );
        const kept = await bus.page({ fromSeq: 0, limit: 100, waitMs: 0 });
        assert.deepEqual(
          kept.events.map((e) => (e.payload as { key: string }).key),
          ['new0', 'new1', 'new2'],
        );
        await assert.rejects(bus.page({ fromSeq: old[0], limit: 10, waitMs: 0 }), (e) =>
          isCoordinationError(e, 'E-EVT-CURSOR-EXPIRED'),
        );
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `event retention by size on ${engineCase.name}: the newest events within the payload bound stay, of every coordination kind`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const bus = new EventBusService(engine, Date.now, { maxEvents: 1_000, maxAgeMs: 3_600_000, maxBytes: 50_000 });
        const bb = new BlackboardService(engine);
        const kg = new KnowledgeService(engine);
        const big: number[] = [];
        // Each blackboard event carries its 10,000-character value twice (the value and the entry).
        for (let i = 0; i < 8; i++) big.push((await bb.set({ key: `big${i}`, value: 'v'.repeat(10_000) })).version);
        await kg.insert([{ subject: 'a', predicate: 'is', object: 'b' }]);
        const workflow = await addWorkflow(engine, 'kept: a workflow event is history');
        await engine.write((tx) =>
          tx.insert(
            "INSERT INTO events (ts, kind, workflow_id, payload) VALUES ('t', 'workflow.note', ?, ?) RETURNING seq",
            [workflow, 'x'.repeat(60_000)],
          ),
        );
        assert.ok((await bus.prune()) >= 6);
        const kept = await bus.page({ fromSeq: 0, limit: 100, waitMs: 0 });
        const keys = kept.events
          .filter((e) => e.kind.startsWith('blackboard.'))
          .map((e) => (e.payload as { key: string }).key);
        assert.deepEqual(keys, ['big6', 'big7'], 'the two newest blackboard events fit in 50,000 characters');
        assert.ok(
          kept.events.some((e) => e.kind.startsWith('knowledge.')),
          'the knowledge event is newer: kept',
        );
        assert.ok(
          kept.events.some((e) => e.kind === 'workflow.note'),
          'a workflow event is never dropped',
        );
        // Knowledge-graph events are prunable now: the count bound drops them too.
        const tight = new EventBusService(engine, Date.now, { maxEvents: 1, maxAgeMs: 3_600_000, maxBytes: 50_000 });
        await tight.prune();
        const left = await tight.page({ fromSeq: 0, limit: 100, waitMs: 0 });
        assert.deepEqual(
          left.events.map((e) => e.kind),
          ['workflow.note'],
        );
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `idempotent graph change on ${engineCase.name}: two engines racing with one key make one change and give one answer`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engines = [await ledger.open(), await ledger.open()];
        for (let round = 0; round < 4; round++) {
          const args = { graph_id: 'race', operations: [{ op: 'add_node' as const, node: { id: `n${round}` } }] };
          const results = await Promise.all(
            engines.map((engine) =>
              runIdempotent(engine, Date.now, { tool: 'graph_batch_mutate', key: `key-${round}`, args }, (tx) =>
                new GraphService(engine).batchMutateInTransaction(tx, args, { correlation: {} }),
              ),
            ),
          );
          assert.deepEqual(results.map((r) => r.idempotent).sort(), [false, true], 'one ran, one replayed');
          const [a, b] = results.map(({ idempotent: _i, ...rest }) => rest);
          assert.deepEqual(a, b, 'the same answer');
          assert.equal(a.committed_version, round + 1, 'one change per key');
        }
        const latest = await new GraphService(engines[0]).latest('race');
        assert.equal(latest.graph.graph_version, 4);
        const replays = await new EventBusService(engines[1]).page({
          fromSeq: 0,
          limit: 100,
          waitMs: 0,
          filter: { kinds: ['graph_batch_mutate_replayed'] },
        });
        assert.equal(replays.events.length, 4, 'each replay left a *_replayed event');
      } finally {
        await ledger.dispose();
      }
    },
  );
  test(
    `idempotent work outside a transaction on ${engineCase.name}: the key is reserved, a racing call waits and replays, a failure frees the key`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engines = [await ledger.open(), await ledger.open()];
        let runs = 0;
        // Stands for starting a process: slow, and outside any transaction.
        const work = async (): Promise<{ started: number }> => {
          runs++;
          await new Promise((r) => setTimeout(r, 300));
          return { started: runs };
        };
        const call = { tool: 'child_create', key: 'k1', args: { command: 'x' } };
        const results = await Promise.all(engines.map((engine) => runIdempotentOutside(engine, Date.now, call, work)));
        assert.equal(runs, 1, 'one change for one key');
        assert.deepEqual(results.map((r) => r.idempotent).sort(), [false, true]);
        assert.deepEqual(results[0].started, results[1].started, 'the same answer');
        await assert.rejects(
          runIdempotentOutside(engines[0], Date.now, { ...call, args: { command: 'y' } }, work),
          /other arguments/,
        );
        const failing = { tool: 'child_create', key: 'k2', args: {} };
        await assert.rejects(
          runIdempotentOutside(engines[0], Date.now, failing, async () => Promise.reject(new Error('could not start'))),
          /could not start/,
        );
        const retried = await runIdempotentOutside(engines[1], Date.now, failing, work);
        assert.equal(retried.idempotent, false, 'a failed first call left the key free');
        assert.equal(runs, 2);
      } finally {
        await ledger.dispose();
      }
    },
  );
}
