import { coordinationError } from '../../coordination/coordinationErrors';
import { opIdFor, runIdempotentOutside } from '../../coordination/idempotency/idempotencyRuns';
import { LedgerError } from '../../errors';
import type { LedgerEngine } from '../../ports/store';
import type { ChildBatchCreateInput, ChildSpawnCodexOutput } from './childContracts';
import type { ChildService } from './childService';

/**
 * `child_batch_create`: the entries run one after the other as `child_spawn_codex` (each with its
 * own idempotency key). When one fails to start, every child this batch started is stopped, and
 * the keys it stored are forgotten so a retry starts them again; children answered from an
 * earlier call's key are left alone. The refusal names the entry and the children rolled back.
 */
export async function createChildBatch(
  engine: LedgerEngine,
  children: ChildService,
  clock: () => number,
  input: ChildBatchCreateInput,
): Promise<{ children: ChildSpawnCodexOutput[]; created: number; idempotent_entries: number }> {
  const results: ChildSpawnCodexOutput[] = [];
  const started: { childId: string; key: string | undefined }[] = [];
  for (const [index, entry] of input.entries.entries()) {
    try {
      const result = await runIdempotentOutside(
        engine,
        clock,
        { tool: 'child_spawn_codex', key: entry.idempotency_key, args: entry },
        () => children.spawnCodex(entry, opIdFor(entry)),
      );
      results.push(result);
      if (!result.idempotent) started.push({ childId: result.child_id, key: entry.idempotency_key });
    } catch (err) {
      const rolledBack: string[] = [];
      for (const { childId, key } of [...started].reverse()) {
        await children.rollback(childId).catch(() => undefined);
        rolledBack.push(childId);
        if (key !== undefined)
          await engine.write((tx) =>
            tx.run('DELETE FROM idempotency_keys WHERE tool = ? AND key = ?', ['child_spawn_codex', key]),
          );
      }
      const cause = LedgerError.is(err)
        ? { code: err.code, message: err.message, error: err.data?.error ?? err.data?.reason ?? null }
        : { code: 'InternalError', message: String(err), error: null };
      throw coordinationError(
        'E-BULK-PARTIAL',
        `child_batch_create: entry ${index} (child ${entry.child_id}) failed to start: ${cause.message}. Nothing of the batch is left running: ${rolledBack.length} started child(ren) stopped.`,
        {
          failures: [{ index, child_id: entry.child_id, stage: 'spawn', ...cause }],
          rolled_back: true,
          rollback_child_ids: rolledBack,
        },
      );
    }
  }
  const replayed = results.filter((r) => r.idempotent).length;
  return { children: results, created: results.length - replayed, idempotent_entries: replayed };
}
