import { randomUUID } from 'node:crypto';
import type { AsyncSqlReader, AsyncSqlWriter, LedgerEngine } from '../../ports/store';
import { appendCoordinationEvent } from '../bus/coordinationEvents';
import { coordinationError } from '../coordinationErrors';
import type { Correlation } from '../../events/correlation';
import {
  decideIdempotency,
  fingerprintArguments,
  idempotencyCacheKey,
  newIdempotencyRecord,
  replayedEventKind,
  withIdempotencyEnvelope,
} from './idempotency';
import type { IdempotencyRecord, IdempotencySettings } from './idempotency';
import { defaultIdempotencySettings } from './idempotency';

/** The operation id of a call's result: the caller's, or a new one. */
export function opIdFor(args: { op_id?: string }): string {
  return args.op_id ?? randomUUID();
}

interface KeyRow {
  fingerprint: string;
  result: string;
  created_at: number;
  expires_at: number;
}

/**
 * How a call's answer is kept under its key: as it is (the default), or packed into what a replay
 * needs to rebuild it in the replaying transaction (graph_patch keeps the committed version's
 * number, not the graph: graphAnswerRecord.ts). `unpack` also takes a record kept whole.
 */
export interface AnswerRecord<R> {
  pack(answer: R): unknown;
  unpack(db: AsyncSqlReader, kept: unknown): Promise<R>;
}

const keptWhole: AnswerRecord<never> = {
  pack: (answer) => answer,
  unpack: (_db, kept) => Promise.resolve(kept as never),
};

export interface IdempotentCall {
  tool: string;
  key: string | undefined;
  args: Record<string, unknown>;
  correlation?: Correlation;
  /**
   * runIdempotentOutside: every refusal `fn` can make before its first write, made without
   * writing. It runs before the key is reserved, so a refused call writes nothing — not even a
   * reservation taken and dropped. Not run for a call whose key replays an earlier answer.
   */
  check?: () => Promise<void>;
}

/**
 * Runs a mutating call under its `idempotency_key` (idempotency_keys, migration v6), in ONE
 * transaction with the change itself: the key is looked up, `fn` makes the change and the
 * answer is recorded before the commit. Writes of every process are serialised, so two calls
 * racing with one key get one change and the same answer: the second one's transaction starts
 * after the first committed and finds its record. A live record with the same arguments replays
 * the stored answer without running `fn` and appends a `<tool>_replayed` event; other arguments
 * are refused (E-IDEMPOTENCY-CONFLICT). No key, or the switch off, runs `fn` as is.
 * `fn` runs inside the write: statements only (see LedgerEngine.write). `record`: how the answer
 * is kept (whole by default).
 */
export async function runIdempotent<R extends object>(
  engine: LedgerEngine,
  clock: () => number,
  call: IdempotentCall,
  fn: (tx: AsyncSqlWriter) => Promise<R>,
  settings: IdempotencySettings = defaultIdempotencySettings,
  record: AnswerRecord<R> = keptWhole,
): Promise<R & { idempotent: boolean; idempotency_key: string | null }> {
  const key = call.key;
  if (key === undefined || !settings.enabled)
    return withIdempotencyEnvelope(await engine.write(fn), key ?? null, false);
  const fingerprint = fingerprintArguments(call.args);
  return engine.write(async (tx) => {
    const now = clock();
    const row = await tx.get<KeyRow>(
      'SELECT fingerprint, result, created_at, expires_at FROM idempotency_keys WHERE tool = ? AND key = ?',
      [call.tool, key],
    );
    const existing: IdempotencyRecord<R> | null = row
      ? {
          cache_key: idempotencyCacheKey(call.tool, key),
          tool: call.tool,
          idempotency_key: key,
          fingerprint: row.fingerprint,
          result: JSON.parse(row.result) as R,
          stored_at: Number(row.created_at),
          expires_at: Number(row.expires_at),
        }
      : null;
    const decision = decideIdempotency(existing, { tool: call.tool, key, fingerprint, now });
    if (decision.action === 'replay') {
      await appendCoordinationEvent(tx, {
        kind: replayedEventKind(call.tool),
        now,
        entity: 'idempotency',
        entityId: `${call.tool}:${key}`,
        payload: { tool: call.tool, idempotency_key: key, stored_at: decision.record.stored_at },
        correlation: call.correlation,
      });
      return withIdempotencyEnvelope(await record.unpack(tx, decision.result), key, true);
    }
    const result = await fn(tx);
    const kept = newIdempotencyRecord({ tool: call.tool, key, fingerprint, now }, result, settings.windowMs);
    await tx.run(
      `INSERT INTO idempotency_keys (tool, key, fingerprint, result, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (tool, key) DO UPDATE SET fingerprint = excluded.fingerprint, result = excluded.result, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      [call.tool, key, fingerprint, JSON.stringify(record.pack(result)), kept.stored_at, kept.expires_at],
    );
    // Forget records whose window is over (indexed by expires_at), so the table stays small.
    await tx.run('DELETE FROM idempotency_keys WHERE expires_at <= ?', [now]);
    return withIdempotencyEnvelope(result, key, false);
  });
}

/** What a reserved key holds while its first call runs outside a transaction. */
const pendingResult = '"__pending__"';
/** How long a second call with a reserved key waits for the first one's answer (below a client's 60 s). */
const pendingWaitMs = 45_000;

/**
 * `runIdempotent` for a change that cannot run inside one write transaction: one that starts a
 * process (child runtimes) or calls a service making its own writes. The key is reserved in a
 * transaction first; `fn` runs; its answer is recorded. A second call racing with the same key
 * finds the reservation and waits (holding no lock) for the first one's answer, then replays it,
 * so one key still makes one change. `call.check` runs first (after a read of the key, so a replay
 * is not refused): a call it refuses has written nothing. If `fn` still fails, the reservation is
 * dropped and a retry runs again. No key, or the switch off, runs `check` and `fn` as they are.
 */
export async function runIdempotentOutside<R extends object>(
  engine: LedgerEngine,
  clock: () => number,
  call: IdempotentCall,
  fn: () => Promise<R>,
  settings: IdempotencySettings = defaultIdempotencySettings,
): Promise<R & { idempotent: boolean; idempotency_key: string | null }> {
  const key = call.key;
  if (key === undefined || !settings.enabled) {
    await call.check?.();
    return withIdempotencyEnvelope(await fn(), key ?? null, false);
  }
  const fingerprint = fingerprintArguments(call.args);
  const deadline = clock() + pendingWaitMs;
  if (call.check) {
    const now = clock();
    const live = await engine.read((db) =>
      db.get<KeyRow>(
        'SELECT fingerprint, result, created_at, expires_at FROM idempotency_keys WHERE tool = ? AND key = ?',
        [call.tool, key],
      ),
    );
    if (!live || Number(live.expires_at) <= now) await call.check();
  }
  for (;;) {
    const seq = engine.seq;
    const claim = await engine.write(
      async (tx): Promise<{ kind: 'run' } | { kind: 'wait' } | { kind: 'replay'; result: R }> => {
        const now = clock();
        const row = await tx.get<KeyRow>(
          'SELECT fingerprint, result, created_at, expires_at FROM idempotency_keys WHERE tool = ? AND key = ?',
          [call.tool, key],
        );
        if (row && Number(row.expires_at) > now) {
          const record: IdempotencyRecord<R> = {
            cache_key: idempotencyCacheKey(call.tool, key),
            tool: call.tool,
            idempotency_key: key,
            fingerprint: row.fingerprint,
            result: {} as R,
            stored_at: Number(row.created_at),
            expires_at: Number(row.expires_at),
          };
          decideIdempotency(record, { tool: call.tool, key, fingerprint, now }); // refuses other arguments
          if (row.result === pendingResult) return { kind: 'wait' };
          await appendCoordinationEvent(tx, {
            kind: replayedEventKind(call.tool),
            now,
            entity: 'idempotency',
            entityId: `${call.tool}:${key}`,
            payload: { tool: call.tool, idempotency_key: key, stored_at: record.stored_at },
            correlation: call.correlation,
          });
          return { kind: 'replay', result: JSON.parse(row.result) as R };
        }
        await tx.run(
          `INSERT INTO idempotency_keys (tool, key, fingerprint, result, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (tool, key) DO UPDATE SET fingerprint = excluded.fingerprint, result = excluded.result, created_at = excluded.created_at, expires_at = excluded.expires_at`,
          [call.tool, key, fingerprint, pendingResult, now, now + settings.windowMs],
        );
        return { kind: 'run' };
      },
    );
    if (claim.kind === 'replay') return withIdempotencyEnvelope(claim.result, key, true);
    if (claim.kind === 'run') break;
    const remaining = deadline - clock();
    if (remaining <= 0) {
      throw coordinationError(
        'E-IDEMPOTENCY-PENDING',
        `the first ${call.tool} call with idempotency key '${key}' is still running; retry in a moment`,
        { tool: call.tool, idempotency_key: key },
      );
    }
    await engine.waitForChange(seq, { timeoutMs: Math.min(remaining, 1000) });
  }
  let result: R;
  try {
    result = await fn();
  } catch (err) {
    await engine.write((tx) =>
      tx.run('DELETE FROM idempotency_keys WHERE tool = ? AND key = ? AND result = ?', [call.tool, key, pendingResult]),
    );
    throw err;
  }
  await engine.write((tx) =>
    tx.run('UPDATE idempotency_keys SET result = ? WHERE tool = ? AND key = ?', [
      JSON.stringify(result),
      call.tool,
      key,
    ]),
  );
  return withIdempotencyEnvelope(result, key, false);
}
