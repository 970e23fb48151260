import { createHash } from 'node:crypto';
import { coordinationError } from '../coordinationErrors';
import { toEventKind } from '../../events/eventKinds';
import type { EventKind } from '../../events/eventKinds';

/**
 * Idempotency rules, pure (the store keeps the records). Public implementation:
 * self-codex `src/infra/idempotency.ts`, where the cache key is
 * `method:key:sha256(arguments)`, so a key reused with other arguments silently runs again.
 * Here the cache key is `tool:key` only and the record keeps the arguments' fingerprint: a
 * reused key with different arguments is refused (`E-IDEMPOTENCY-CONFLICT`, like the public
 * HTTP layer's `IDEMPOTENCY_CONFLICT`), since it is almost always a client bug that would
 * otherwise do a change twice.
 */

/** How long a key is remembered (the public default: 10 minutes). `mcp_info` states it. */
export const IDEMPOTENCY_WINDOW_MS = 600_000;

/** Whether idempotency keys are remembered (the `idempotency` switch), and for how long. */
export interface IdempotencySettings {
  enabled: boolean;
  windowMs: number;
}

export const defaultIdempotencySettings: IdempotencySettings = { enabled: true, windowMs: IDEMPOTENCY_WINDOW_MS };

/** Arguments left out of the fingerprint: the key itself and the per-call operation id. */
export const FINGERPRINT_EXCLUDED = ['idempotency_key', 'op_id'] as const;

export interface IdempotencyRecord<R = unknown> {
  /** `tool:key`, the primary key of the record. */
  cache_key: string;
  tool: string;
  idempotency_key: string;
  /** SHA-256 of the canonical arguments (see {@link fingerprintArguments}). */
  fingerprint: string;
  /** The first call's result, without the replay envelope. */
  result: R;
  stored_at: number;
  expires_at: number;
}

/** Cache key of a call. */
export function idempotencyCacheKey(tool: string, key: string): string {
  return `${tool.trim().toLowerCase()}:${key}`;
}

/** JSON with object keys sorted at every level and `undefined` properties dropped. */
export function canonicalJson(value: unknown): string {
  const canon = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : canon(x)));
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = canon(x);
    }
    return out;
  };
  return JSON.stringify(canon(value)) ?? 'null';
}

/** Fingerprint of a call's arguments: equal for the same arguments in any key order. */
export function fingerprintArguments(args: Record<string, unknown>): string {
  const rest: Record<string, unknown> = { ...args };
  for (const k of FINGERPRINT_EXCLUDED) delete rest[k];
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}

export type IdempotencyDecision<R> =
  { action: 'execute' } | { action: 'replay'; result: R; record: IdempotencyRecord<R> };

/**
 * What to do with a call that carries `key`: run it (no live record), or replay the stored
 * result (live record, same fingerprint). Throws `E-IDEMPOTENCY-CONFLICT` for a live record
 * with another fingerprint. An expired record counts as absent.
 */
export function decideIdempotency<R>(
  existing: IdempotencyRecord<R> | null,
  call: { tool: string; key: string; fingerprint: string; now: number },
): IdempotencyDecision<R> {
  if (!existing || existing.expires_at <= call.now) return { action: 'execute' };
  if (existing.fingerprint !== call.fingerprint) {
    throw coordinationError(
      'E-IDEMPOTENCY-CONFLICT',
      `idempotency key '${call.key}' was already used for ${call.tool} with other arguments`,
      {
        tool: call.tool,
        idempotency_key: call.key,
        stored_at: existing.stored_at,
        expires_at: existing.expires_at,
        hint: 'repeat the first call exactly, or use a new key',
      },
    );
  }
  return { action: 'replay', result: existing.result, record: existing };
}

/** The record to store after a first execution. */
export function newIdempotencyRecord<R>(
  call: { tool: string; key: string; fingerprint: string; now: number },
  result: R,
  windowMs = IDEMPOTENCY_WINDOW_MS,
): IdempotencyRecord<R> {
  return {
    cache_key: idempotencyCacheKey(call.tool, call.key),
    tool: call.tool,
    idempotency_key: call.key,
    fingerprint: call.fingerprint,
    result,
    stored_at: call.now,
    expires_at: call.now + windowMs,
  };
}

/** A result with the replay envelope every idempotent tool returns. */
export function withIdempotencyEnvelope<R extends object>(
  result: R,
  key: string | null | undefined,
  replayed: boolean,
): R & { idempotent: boolean; idempotency_key: string | null } {
  return { ...result, idempotent: replayed, idempotency_key: key ?? null };
}

/** Kind of the event a replay emits: `<tool>_replayed` (e.g. `graph_batch_mutate_replayed`). */
export function replayedEventKind(tool: string): EventKind {
  return toEventKind(`${tool.trim().toLowerCase()}_replayed`);
}
