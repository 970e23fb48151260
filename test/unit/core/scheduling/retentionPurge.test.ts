// What would otherwise stay forever, purged on both engines: blackboard entries past their time
// to live (each with an `expire` change bb_watch sees) and open contract-net calls whose task
// ended (withdrawn with an event). The MCP server runs both on the events retention cadence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BlackboardService } from '../../../../src/core/coordination/blackboard/blackboardService';
import { createSchedulingServices } from '../../../../src/core/scheduling/schedulingServices';
import type { BidderDefinition } from '../../../../src/core/scheduling/contractNet/contractNetService';
import type { LedgerEngine } from '../../../../src/core/ports/store';
import { engineCases } from '../../store/engines/engineKit';

const agents: BidderDefinition[] = [{ name: 'alice', scope: { write: ['src/**'], exclude: [] } }];

async function addTask(engine: LedgerEngine, status: string, areas: string[]): Promise<number> {
  return engine.write((tx) =>
    tx.insert('INSERT INTO tasks (title, status, areas, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [
      't',
      status,
      JSON.stringify(areas),
      't',
      't',
    ]),
  );
}

async function count(engine: LedgerEngine, sql: string, params: (string | number)[] = []): Promise<number> {
  return Number((await engine.read((db) => db.get<{ n: number }>(sql, params)))?.n ?? 0);
}

for (const engineCase of engineCases) {
  test(
    `blackboard purge on ${engineCase.name}: expired rows go with an expire change, live ones stay`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        let now = 1_000_000;
        const engine = await ledger.open();
        const bb = new BlackboardService(engine, () => now);
        await bb.set({ key: 'lock:a', value: 1, ttl_ms: 100 });
        await bb.set({ key: 'lock:b', value: 2, ttl_ms: 5_000 });
        await bb.set({ key: 'note', value: 3 });
        assert.equal(await bb.purgeExpired(), 0, 'nothing has expired yet');
        now += 200;
        const seen = (await bb.watch(0, { waitMs: 0, limit: 1000 })).at(-1)?.version ?? 0;
        const watched = bb.watch(seen, { waitMs: 5_000 });
        assert.equal(await bb.purgeExpired(), 1);
        const changes = await watched;
        assert.deepEqual(
          changes.map((c) => [c.kind, c.key, c.reason]),
          [['expire', 'lock:a', 'ttl']],
          'bb_watch sees the entry expire',
        );
        assert.equal(changes[0].previous?.value, 1);
        assert.equal(
          await count(engine, 'SELECT COUNT(*) AS n FROM blackboard_entries'),
          2,
          'the expired row is gone, the others stay',
        );
        assert.equal(await bb.purgeExpired(), 0, 'a second purge finds nothing');
        now += 10_000;
        assert.equal(await bb.purgeExpired(), 1);
        assert.deepEqual(
          (await bb.query({})).map((e) => e.key),
          ['note'],
          'an entry without ttl never expires',
        );
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `contract-net purge on ${engineCase.name}: open calls of ended tasks are withdrawn, others stay`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const now = 2_000_000;
        const engine = await ledger.open();
        const s = createSchedulingServices(
          engine,
          () => agents,
          () => now,
        );
        const ending = await addTask(engine, 'open', ['src/a/**']);
        const staying = await addTask(engine, 'open', ['src/b/**']);
        const awarded = await addTask(engine, 'open', ['src/c/**']);
        const stale = await s.contractNet.announce({
          task_id: `task-${ending}`,
          award: false,
          allowOverlap: false,
          tags: [],
        });
        const open = await s.contractNet.announce({
          task_id: `task-${staying}`,
          award: false,
          allowOverlap: false,
          tags: [],
        });
        await s.contractNet.announce({ task_id: `task-${awarded}`, award: true, allowOverlap: false, tags: [] });
        assert.equal(await s.contractNet.purgeEndedCalls(), 0, 'no task has ended');
        await engine.write((tx) =>
          tx.run("UPDATE tasks SET status = 'cancelled' WHERE id IN (?, ?)", [ending, awarded]),
        );
        assert.equal(await s.contractNet.purgeEndedCalls(), 1, 'only the open call of the ended task');
        const err = await s.contractNet.award({ call_id: stale.call_id, allowOverlap: false }).catch((e: unknown) => e);
        assert.equal(
          (err as { data?: { error?: string } }).data?.error,
          'E-CNP-NOT-FOUND',
          'the withdrawn call is gone',
        );
        assert.equal(
          await count(engine, "SELECT COUNT(*) AS n FROM cnp_calls WHERE call_id = ? AND status = 'open'", [
            open.call_id,
          ]),
          1,
          'the open call of a live task stays',
        );
        assert.equal(
          await count(engine, "SELECT COUNT(*) AS n FROM cnp_calls WHERE task_id = ? AND status = 'awarded'", [
            awarded,
          ]),
          1,
          'an awarded call is completed by the task hook, not purged',
        );
        assert.equal(
          await count(engine, "SELECT COUNT(*) AS n FROM events WHERE kind = 'cnp_call_withdrawn' AND entity_id = ?", [
            stale.call_id,
          ]),
          1,
        );
        assert.equal(await s.contractNet.purgeEndedCalls(), 0);
      } finally {
        await ledger.dispose();
      }
    },
  );
}
