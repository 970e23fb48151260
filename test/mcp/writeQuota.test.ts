import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import { ledgerEnv } from '../helpers/testLedger';
import { tempRepo } from '../helpers/tmp';

/**
 * A client that writes without end is stopped by its write quota, through the real SDK client
 * (`npm run test:pg` runs it on PostgreSQL): a coded QuotaExceeded (-32012, E-QUOTA) naming the
 * bound and when to retry; nothing of the refused call is written; another client writes on.
 */
test('a filling client is refused with E-QUOTA once it wrote its quota; another client goes on', async () => {
  const repo = tempRepo();
  const env = { ...ledgerEnv(repo), AGENT_LEDGER_LIMITS: 'quotaBytes=300KiB, bbNamespaceEntries=40' };
  const filler = await connect(repo, ['--enable-orchestrator'], { env });
  const other = await connect(repo, ['--enable-orchestrator'], { env });
  try {
    const info = await filler.call<{ limits: { ledger: Record<string, number> } }>('mcp_info');
    assert.equal(info.limits.ledger.quotaBytes, 300 * 1024, 'mcp_info reports the bounds in force');
    assert.equal(info.limits.ledger.bbNamespaceEntries, 40);

    let written = 0;
    let refusal: { code: number; reason: string; message: string; data?: Record<string, unknown> } | undefined;
    for (let n = 0; n < 200 && !refusal; n++) {
      const result = await filler.client.callTool({
        name: 'bb_set',
        arguments: { key: `fill${n % 30}:${n}`, value: 'v'.repeat(20_000) },
      });
      if (!result.isError) written++;
      else
        refusal = (JSON.parse((result.content as Array<{ text: string }>).at(-1)!.text) as { error: typeof refusal })
          .error;
    }
    assert.ok(refusal, 'the filler was stopped');
    assert.equal(refusal.code, -32012);
    assert.equal(refusal.reason, 'QuotaExceeded');
    assert.equal(refusal.data?.error, 'E-QUOTA');
    assert.equal(refusal.data?.limit, 'quotaBytes');
    assert.match(String(refusal.data?.caller), /^connection:/);
    assert.ok(Number(refusal.data?.retry_after_ms) > 0);
    assert.ok(written >= 5 && written <= 8, `${written} writes of 20,000 characters fitted in 300 KiB`);
    const kept = await other.call<{ entries: unknown[] }>('bb_query', { key_prefix: 'fill', limit: 100 });
    assert.equal(kept.entries.length, written, 'the refused call wrote nothing');
    // Refused again until its window ends (what still fits in the quota is written); the other client is not held back.
    assert.equal(
      (await filler.fail('bb_set', { key: 'fill:again', value: 'v'.repeat(20_000) })).reason,
      'QuotaExceeded',
    );
    await other.call('bb_set', { key: 'plan:next', value: 'someone else writes on' });
    // A namespace's bound is its own refusal.
    for (let i = 0; i < 39; i++) await other.call('bb_set', { key: `plan:${i}`, value: i });
    const full = await other.fail('bb_set', { key: 'plan:40', value: 40 });
    assert.equal(full.data?.limit, 'bbNamespaceEntries');
  } finally {
    await filler.close();
    await other.close();
  }
});
