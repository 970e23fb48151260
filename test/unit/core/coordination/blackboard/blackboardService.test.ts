// The blackboard service on both engines: writes, versions, expiry, queries, atomic batches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BlackboardService } from '../../../../../src/core/coordination/blackboard/blackboardService';
import { engineCases } from '../../../store/engines/engineKit';
import { LedgerError } from '../../../../../src/core/errors';

for (const engineCase of engineCases) {
  test(
    `blackboard on ${engineCase.name}: set, get, version, expiry, query, delete, batch atomicity`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        let now = 1_000_000;
        const bb = new BlackboardService(await ledger.open(), () => now);
        const other = new BlackboardService(await ledger.open(), () => now);
        const a = await bb.set({ key: 'plan:step1', value: { done: false }, tags: ['Plan', 'plan'] });
        assert.deepEqual(a.tags, ['plan']);
        now += 10;
        const b = await bb.set({ key: 'plan:step1', value: { done: true }, ttl_ms: 100 });
        assert.ok(b.version > a.version);
        assert.equal(b.created_at, a.created_at, 'an alive entry keeps its creation time');
        assert.deepEqual(
          (await other.get('plan:step1'))?.value,
          { done: true },
          'another engine on the same ledger sees it',
        );
        await bb.set({ key: 'ci/build', value: 1, tags: ['ci'] });
        assert.deepEqual(
          (await other.query({ key_prefix: 'plan:' })).map((e) => e.key),
          ['plan:step1'],
        );
        assert.deepEqual(
          (await other.query({ tags: ['CI'] })).map((e) => e.key),
          ['ci/build'],
        );
        now += 200;
        assert.equal(await other.get('plan:step1'), null, 'expired');
        assert.equal(await bb.delete('plan:step1'), false, 'nothing visible to delete');
        assert.equal(await bb.delete('ci/build'), true);
        assert.equal(await other.get('ci/build'), null);
        await assert.rejects(
          bb.setMany([
            { key: 'x', value: 1 },
            { key: 'y', value: () => 1 },
          ]),
        );
        assert.equal(await other.get('x'), null, 'a refused batch writes nothing');
      } finally {
        await ledger.dispose();
      }
    },
  );
}

for (const engineCase of engineCases) {
  test(
    `bb watch on ${engineCase.name}: returns promptly when another engine writes, empty on timeout`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const watcher = new BlackboardService(await ledger.open());
        const writer = new BlackboardService(await ledger.open());
        assert.deepEqual(await watcher.watch(0, { waitMs: 50 }), []);
        const started = Date.now();
        const waiting = watcher.watch(0, { waitMs: 10_000 });
        setTimeout(() => void writer.set({ key: 'k', value: 1 }), 100);
        const changes = await waiting;
        assert.equal(changes.length, 1);
        assert.equal(changes[0].key, 'k');
        assert.ok(Date.now() - started < 5_000, 'woke on the write, not the timeout');
        assert.deepEqual(await watcher.watch(changes[0].version, { waitMs: 20 }), [], 'the cursor does not repeat');
      } finally {
        await ledger.dispose();
      }
    },
  );
}

for (const engineCase of engineCases) {
  test(
    `blackboard bounds on ${engineCase.name}: a namespace's entries and characters, the whole blackboard's, kept by every write, refused whole`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        let now = 1_000_000;
        const limits = { bbNamespaceEntries: 5, bbNamespaceBytes: 1_000, bbTotalBytes: 1_500 };
        const bb = new BlackboardService(await ledger.open(), () => now, limits);
        const other = new BlackboardService(await ledger.open(), () => now, limits); // another process
        const quota = (e: unknown, limit: string) =>
          LedgerError.is(e, 'QuotaExceeded') && e.data?.error === 'E-QUOTA' && e.data?.limit === limit;

        for (let i = 0; i < 5; i++) await (i % 2 ? other : bb).set({ key: `a:${i}`, value: 'x'.repeat(100) });
        await assert.rejects(bb.set({ key: 'a:5', value: 1 }), (e) => quota(e, 'bbNamespaceEntries'));
        await bb.set({ key: 'a:4', value: 'replacing an entry adds none' });
        await assert.rejects(other.set({ key: 'a:0', value: 'y'.repeat(700) }), (e) => quota(e, 'bbNamespaceBytes'));
        await other.set({ key: 'a:0', value: 'y'.repeat(500) }); // 500 + 3 × 102 + 30 fits in 1,000
        await assert.rejects(
          bb.setMany([
            { key: 'b:1', value: 'z'.repeat(400) },
            { key: 'c:2', value: 'z'.repeat(400) },
          ]),
          (e) => quota(e, 'bbTotalBytes'),
        );
        assert.equal(await bb.get('b:1'), null, 'the refused batch wrote nothing');
        // Deleting and expiring give room back, in every process.
        assert.equal(await other.delete('a:0'), true);
        await bb.set({ key: 'b:1', value: 'z'.repeat(400), ttl_ms: 50 });
        await bb.set({ key: 'c:2', value: 'z'.repeat(400) });
        await assert.rejects(other.set({ key: 'd:3', value: 'z'.repeat(400) }), (e) => quota(e, 'bbTotalBytes'));
        now += 100;
        assert.equal(await other.purgeExpired(), 1);
        await other.set({ key: 'd:3', value: 'z'.repeat(400) });
        await bb.set({ key: 'a:5', value: 'a fifth entry again' });
      } finally {
        await ledger.dispose();
      }
    },
  );
}
