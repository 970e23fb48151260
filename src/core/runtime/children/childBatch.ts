import { coordinationError } from '../../coordination/coordinationErrors';
import { opIdFor, runIdempotentOutside } from '../../coordination/idempotency/idempotencyRuns';
import { LedgerError } from '../../errors';
import type { LedgerEngine } from '../../ports/store';
import type { ChildBatchCreateInput, ChildSpawnCodexInput, ChildSpawnCodexOutput } from './childContracts';
import type { ChildService } from './childService';

/**
 * `child_batch_create`: every entry is checked first (program, folder, files, id, the running
 * limit for the whole batch), so a batch refused there has started and written nothing. Then the
 * entries run one after the other as `child_spawn_codex` (each with its own idempotency key).
 * When one still fails to start, every child this batch started is stopped, and the keys it
 * stored are forgotten so a retry starts them again; children answered from an earlier call's key
 * are left alone. The refusal names the entry and the children rolled back.
 */
export async function createChildBatch(
  engine: LedgerEngine,
  children: ChildService,
  clock: () => number,
  input: ChildBatchCreateInput,
): Promise<{ children: ChildSpawnCodexOutput[]; created: number; idempotent_entries: number }> {
  await checkBatch(engine, children, clock, input);
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
      throw partial(index, entry, err, 'spawn', rolledBack);
    }
  }
  const replayed = results.filter((r) => r.idempotent).length;
  return { children: results, created: results.length - replayed, idempotent_entries: replayed };
}

/** Refuses the batch, naming its first entry that cannot start, before anything starts or is written. */
async function checkBatch(
  engine: LedgerEngine,
  children: ChildService,
  clock: () => number,
  input: ChildBatchCreateInput,
): Promise<void> {
  const ids = new Set<string>();
  const now = clock();
  const fresh: ChildSpawnCodexInput[] = [];
  for (const [index, entry] of input.entries.entries()) {
    if (ids.has(entry.child_id))
      throw partial(
        index,
        entry,
        new LedgerError('InvalidStatus', `child ${entry.child_id} is named twice in the batch`, {
          error: 'E-CHILD-EXISTS',
        }),
        'check',
        [],
      );
    ids.add(entry.child_id);
    // An entry whose key replays an earlier answer starts nothing: it is not checked.
    const key = entry.idempotency_key;
    const live =
      key !== undefined &&
      (await engine.read((db) =>
        db.get<{ expires_at: number }>('SELECT expires_at FROM idempotency_keys WHERE tool = ? AND key = ?', [
          'child_spawn_codex',
          key,
        ]),
      ));
    if (live && Number(live.expires_at) > now) continue;
    try {
      await children.checkSpawnCodex(entry, opIdFor(entry), fresh.length);
    } catch (err) {
      throw partial(index, entry, err, 'check', []);
    }
    fresh.push(entry);
  }
}

function partial(
  index: number,
  entry: ChildSpawnCodexInput,
  err: unknown,
  stage: 'check' | 'spawn',
  rolledBack: string[],
): LedgerError {
  const cause = LedgerError.is(err)
    ? { code: err.code, message: err.message, error: err.data?.error ?? err.data?.reason ?? null }
    : { code: 'InternalError', message: String(err), error: null };
  const what =
    stage === 'check'
      ? 'cannot start; nothing of the batch was started'
      : `failed to start: ${rolledBack.length} started child(ren) stopped`;
  return coordinationError(
    'E-BULK-PARTIAL',
    `child_batch_create: entry ${index} (child ${entry.child_id}) ${what}: ${cause.message}. Nothing of the batch is left running.`,
    {
      failures: [{ index, child_id: entry.child_id, stage, ...cause }],
      rolled_back: true,
      rollback_child_ids: rolledBack,
    },
  );
}
