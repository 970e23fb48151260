import { coordinationError } from '../coordinationErrors';

/**
 * Cooperative graph locks as a pure state machine (the public implementation's rules,
 * self-codex `src/graph/locks.ts`): the same holder refreshes its lock and keeps the
 * `lock_id`; another holder is refused while the lock is active; an expired lock counts as
 * absent; a late unlock succeeds and says `expired: true`. Every function takes `now` and the
 * current lock and returns the next state; the store keeps one row per graph.
 */
export interface GraphLock {
  lock_id: string;
  graph_id: string;
  holder: string;
  acquired_at: number;
  refreshed_at: number;
  /** Null only for locks taken without a lifetime (never by `acquireGraphLock`). */
  expires_at: number | null;
  ttl_ms: number | null;
}

/** Longest lock lifetime (one day), as in the public implementation. */
export const LOCK_TTL_MAX_MS = 86_400_000;

/**
 * Lifetime of a lock taken without `ttl_ms`. The public implementation keeps such a lock
 * forever; here it lapses after 10 minutes so an agent that dies cannot block a graph for
 * good. Refreshing without `ttl_ms` keeps the lock's own lifetime.
 */
export const LOCK_TTL_DEFAULT_MS = 600_000;

/** True while `lock` protects its graph at `now`. */
export function isLockActive(lock: GraphLock | null | undefined, now: number): lock is GraphLock {
  return !!lock && (lock.expires_at === null || lock.expires_at > now);
}

export interface LockRequest {
  graph_id: string;
  holder: string;
  ttl_ms?: number;
  now: number;
  /** Id for a new lock (a UUID from the caller: this module makes no randomness). */
  newLockId: string;
}

export interface LockDecision {
  outcome: 'acquired' | 'refreshed';
  lock: GraphLock;
}

const clampTtl = (ttl: number) => Math.min(Math.max(1, Math.floor(ttl)), LOCK_TTL_MAX_MS);

/**
 * `graph_lock`: acquire, or refresh when the same holder already has the active lock.
 * Throws `E-LOCK-HELD` when another holder's lock is active.
 */
export function acquireGraphLock(current: GraphLock | null, request: LockRequest): LockDecision {
  const holder = request.holder.trim();
  const { now } = request;
  if (isLockActive(current, now)) {
    if (current.holder !== holder) {
      throw coordinationError('E-LOCK-HELD', `graph '${current.graph_id}' is locked by '${current.holder}'`, {
        graph_id: current.graph_id,
        holder: current.holder,
        lock_id: current.lock_id,
        expires_at: current.expires_at,
        hint: 'wait for the holder to release the lock or for it to expire',
      });
    }
    const ttl = request.ttl_ms !== undefined ? clampTtl(request.ttl_ms) : (current.ttl_ms ?? LOCK_TTL_DEFAULT_MS);
    return { outcome: 'refreshed', lock: { ...current, refreshed_at: now, ttl_ms: ttl, expires_at: now + ttl } };
  }
  const ttl = clampTtl(request.ttl_ms ?? LOCK_TTL_DEFAULT_MS);
  return {
    outcome: 'acquired',
    lock: {
      lock_id: request.newLockId,
      graph_id: request.graph_id,
      holder,
      acquired_at: now,
      refreshed_at: now,
      ttl_ms: ttl,
      expires_at: now + ttl,
    },
  };
}

export interface UnlockResult {
  lock_id: string;
  graph_id: string;
  holder: string;
  released_at: number;
  /** True when the lock had already expired; it is removed all the same. */
  expired: boolean;
  expires_at: number | null;
}

/**
 * `graph_unlock`: releases the lock with `lock_id` (the store then deletes the row).
 * Throws `E-LOCK-NOT-FOUND` when there is no such lock.
 */
export function releaseGraphLock(current: GraphLock | null, lockId: string, now: number): UnlockResult {
  if (!current || current.lock_id !== lockId) {
    throw coordinationError('E-LOCK-NOT-FOUND', `graph lock '${lockId}' is not held`, { lock_id: lockId });
  }
  return {
    lock_id: current.lock_id,
    graph_id: current.graph_id,
    holder: current.holder,
    released_at: now,
    expired: !isLockActive(current, now),
    expires_at: current.expires_at,
  };
}

/**
 * Guard of every graph mutation (`graph_patch`, `graph_batch_mutate`): throws
 * `E-GRAPH-MUTATION-LOCKED` when an active lock belongs to someone other than `owner`
 * (a mutation without an owner counts as someone else).
 */
export function assertCanMutate(current: GraphLock | null, owner: string | null | undefined, now: number): void {
  if (!isLockActive(current, now)) return;
  if (owner !== null && owner !== undefined && owner.trim() === current.holder) return;
  throw coordinationError('E-GRAPH-MUTATION-LOCKED', `graph '${current.graph_id}' is locked by '${current.holder}'`, {
    graph_id: current.graph_id,
    holder: current.holder,
    lock_id: current.lock_id,
    expires_at: current.expires_at,
    hint: 'pass the lock holder as owner, or wait for the lock to expire',
  });
}
