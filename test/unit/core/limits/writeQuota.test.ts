// The write quota on both engines: what a caller writes inside tool calls is counted in the ledger,
// across processes, and the write that passes it is refused whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WriteQuota } from '../../../../src/core/limits/writeQuota';
import { runAsLedger, runWritingAs } from '../../../../src/core/caller';
import { LedgerError } from '../../../../src/core/errors';
import { engineCases, workflowNames } from '../../store/engines/engineKit';
import type { LedgerEngine } from '../../../../src/core/ports/store';

const add = (engine: LedgerEngine, name: string) =>
  engine.write((tx) =>
    tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [name, 'now', 'now']),
  );

for (const engineCase of engineCases) {
  test(
    `write quota on ${engineCase.name}: per caller and window, shared by processes, refused whole`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        let clock = 1_000_000 * 600_000; // the start of a window
        const limits = { quotaBytes: 10_000, quotaWindowMs: 600_000 };
        const first = new WriteQuota(limits, () => clock).meter(await ledger.open());
        const second = new WriteQuota(limits, () => clock).meter(await ledger.open()); // another process
        const name = (n: number) => `${n}-${'x'.repeat(2000)}`; // ~2,000 characters a write

        for (let n = 0; n < 4; n++) await runWritingAs('agent:filler', () => add(n % 2 ? first : second, name(n)));
        let refused: unknown;
        try {
          await runWritingAs('agent:filler', () => add(first, name(4)));
          await runWritingAs('agent:filler', () => add(second, name(5)));
        } catch (err) {
          refused = err;
        }
        assert.ok(LedgerError.is(refused, 'QuotaExceeded'), `expected QuotaExceeded, got ${String(refused)}`);
        assert.equal(refused.toJSON().code, -32012);
        assert.equal(refused.data?.error, 'E-QUOTA');
        assert.equal(refused.data?.limit, 'quotaBytes');
        assert.equal(refused.data?.caller, 'agent:filler');
        assert.ok(Number(refused.data?.retry_after_ms) > 0 && Number(refused.data?.retry_after_ms) <= 600_000);
        const stored = (await workflowNames(first)).map((n) => Number(n.split('-')[0]));
        assert.deepEqual(stored, [0, 1, 2, 3, 4].slice(0, stored.length), 'the refused write left nothing');
        assert.ok(stored.length === 4 || stored.length === 5);

        // The other process refuses as well: the count is the ledger's. What still fits is written, in both.
        await assert.rejects(
          runWritingAs('agent:filler', () => add(second, name(6))),
          (e) => LedgerError.is(e, 'QuotaExceeded'),
        );
        const room = 10_000 - (stored.length === 4 ? 8_032 : 10_040);
        await runWritingAs('agent:filler', () => add(first, 'y'.repeat(room - 6 - 1000)));
        await runWritingAs('agent:filler', () => add(second, 'z'.repeat(1000 - 6)));
        // Full to the character: anything more is refused, by both.
        for (const engine of [first, second, first])
          await assert.rejects(
            runWritingAs('agent:filler', () => add(engine, 'a')),
            (e) => LedgerError.is(e, 'QuotaExceeded'),
          );
        // Another caller, and the ledger's own work, are not held back.
        await runWritingAs('connection:laptop/dev/7', () => add(second, 'someone else'));
        await runAsLedger(() => add(first, 'the ledger feeding itself'));
        await add(first, 'outside any call');

        // What a call leaves running after it answered (a child's exit record, a timer) is the ledger's.
        let late: Promise<number> | undefined;
        await runWritingAs('agent:filler', () => {
          late = new Promise((resolve) => setTimeout(resolve, 20)).then(() => add(first, 'left behind by a call'));
        });
        await late;

        // The next window starts afresh.
        clock += 600_000;
        await runWritingAs('agent:filler', () => add(first, 'next window'));
        assert.deepEqual((await workflowNames(second)).slice(-5), [
          'someone else',
          'the ledger feeding itself',
          'outside any call',
          'left behind by a call',
          'next window',
        ]);
      } finally {
        await ledger.dispose();
      }
    },
  );
}
