import { randomUUID } from 'node:crypto';
import type { LedgerEngine } from '../ports';
import { decideIdempotency, fingerprintArguments, idempotencyCacheKey, newIdempotencyRecord, withIdempotencyEnvelope } from './idempotency';
import type { IdempotencyRecord } from './idempotency';

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
 * Runs a mutating call under its `idempotency_key` (idempotency_keys, migration v6): a live
 * record with the same arguments replays the stored answer without running `fn`; other
 * arguments are refused (E-IDEMPOTENCY-CONFLICT); no key runs `fn` as is. The record is written
 * after `fn` commits, so two first calls racing with one key may both run.
 */
export async function runIdempotent<R extends object>(
  engine: LedgerEngine,
  clock: () => number,
  call: { tool: string; key: string | undefined; args: Record<string, unknown> },
  fn: () => Promise<R>,
): Promise<R & { idempotent: boolean; idempotency_key: string | null }> {
  const key = call.key;
  if (key === undefined) return withIdempotencyEnvelope(await fn(), null, false);
  const fingerprint = fingerprintArguments(call.args);
  const row = await engine.read((db) => db.get<KeyRow>('SELECT fingerprint, result, created_at, expires_at FROM idempotency_keys WHERE tool = ? AND key = ?', [call.tool, key]));
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
  const decision = decideIdempotency(existing, { tool: call.tool, key, fingerprint, now: clock() });
  if (decision.action === 'replay') return withIdempotencyEnvelope(decision.result, key, true);
  const result = await fn();
  const record = newIdempotencyRecord({ tool: call.tool, key, fingerprint, now: clock() }, result);
  await engine.write((tx) =>
    tx.run(
      `INSERT INTO idempotency_keys (tool, key, fingerprint, result, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (tool, key) DO UPDATE SET fingerprint = excluded.fingerprint, result = excluded.result, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      [call.tool, key, fingerprint, JSON.stringify(result), record.stored_at, record.expires_at],
    ),
  );
  return withIdempotencyEnvelope(result, key, false);
}
