import { LedgerError } from '../../../errors';
import { coordinationError } from '../../coordinationErrors';
import type { PlanGraph } from '../planGraph';

/**
 * A transaction on a stored plan graph (tx_begin … tx_commit | tx_rollback): a working copy of
 * the graph at the version it began on, changed by tx_apply, committed optimistically
 * (transactionMerge.ts decides when a graph that moved meanwhile still takes it). It lives in the
 * ledger (plan_graph_transactions), so any server of the ledger continues it, and it lapses
 * when its client stops using it: each tx_apply gives it `ttl_ms` more. A lapsed transaction
 * stops counting at once (it no longer keeps another holder from graph_lock) and its id is
 * refused with E-TX-EXPIRED; its row goes with a later write, after TX_EXPIRED_KEPT_MS, so a late
 * client still hears "expired" rather than "no such transaction".
 */
export interface GraphTransaction {
  tx_id: string;
  graph_id: string;
  base_version: number;
  owner: string | null;
  note: string | null;
  /** The graph the transaction began on (what its changes are measured against). */
  base: PlanGraph;
  /** The working copy: `base` with every tx_apply so far (version still base_version). */
  working: PlanGraph;
  /** tx_apply calls that were applied. */
  applies: number;
  started_at: number;
  refreshed_at: number;
  expires_at: number;
  ttl_ms: number;
}

/** Lifetime of a transaction left without use when tx_begin names none (5 minutes). */
export const TX_TTL_DEFAULT_MS = 300_000;
/** Longest lifetime (one hour): a dead client's transaction never holds a graph longer. */
export const TX_TTL_MAX_MS = 3_600_000;
/** How long a lapsed transaction's row stays to answer E-TX-EXPIRED before a write removes it. */
export const TX_EXPIRED_KEPT_MS = 600_000;
/** Open transactions one graph may have at once (each holds two copies of the graph). */
export const TX_OPEN_PER_GRAPH_MAX = 64;

export const isTransactionActive = (t: Pick<GraphTransaction, 'expires_at'>, now: number) => t.expires_at > now;

/** The transaction `txId` while it is active; E-TX-NOT-FOUND or E-TX-EXPIRED otherwise. */
export function activeTransaction(t: GraphTransaction | null, txId: string, now: number): GraphTransaction {
  if (!t)
    throw coordinationError('E-TX-NOT-FOUND', `transaction '${txId}' is not open`, {
      tx_id: txId,
      hint: 'it was committed, rolled back or expired long ago: begin a new one with tx_begin',
    });
  if (!isTransactionActive(t, now))
    throw coordinationError(
      'E-TX-EXPIRED',
      `transaction '${txId}' on graph '${t.graph_id}' expired at ${new Date(t.expires_at).toISOString()}: it was left unused for ${t.ttl_ms} ms`,
      {
        tx_id: txId,
        graph_id: t.graph_id,
        expires_at: t.expires_at,
        hint: 'begin a new transaction with tx_begin (and pass a longer ttl_ms if your steps are slow)',
      },
    );
  return t;
}

/**
 * graph_lock's half of "locks and transactions exclude each other": a holder may not lock a graph
 * while someone else's transaction on it is open (it would strand that work); the owner of the
 * transaction may. Throws E-TX-OPEN naming the first such transaction.
 */
export function assertNoOtherTransaction(
  open: ReadonlyArray<Pick<GraphTransaction, 'tx_id' | 'graph_id' | 'owner' | 'expires_at'>>,
  holder: string,
  now: number,
): void {
  const other = open.find((t) => isTransactionActive(t, now) && t.owner !== holder.trim());
  if (!other) return;
  throw coordinationError(
    'E-TX-OPEN',
    `graph '${other.graph_id}' has an open transaction${other.owner ? ` of '${other.owner}'` : ''} (${other.tx_id}) until ${new Date(other.expires_at).toISOString()}`,
    {
      graph_id: other.graph_id,
      tx_id: other.tx_id,
      owner: other.owner,
      expires_at: other.expires_at,
      hint: 'wait for the transaction to be committed or rolled back, or for it to expire',
    },
  );
}

/** tx_begin's refusal when the graph already has TX_OPEN_PER_GRAPH_MAX open transactions. */
export function assertRoomForTransaction(graphId: string, open: number): void {
  if (open < TX_OPEN_PER_GRAPH_MAX) return;
  throw new LedgerError(
    'QuotaExceeded',
    `graph '${graphId}' has ${open} open transactions, the most one graph may have: commit or roll some back, or wait for them to expire`,
    { error: 'E-QUOTA', limit: 'transactionsPerGraph', graph_id: graphId, open },
  );
}

/** The lifetime a transaction gets: `ttl_ms` bounded by TX_TTL_MAX_MS, TX_TTL_DEFAULT_MS without it. */
export function transactionTtl(ttl: number | undefined): number {
  return Math.min(Math.max(1, Math.floor(ttl ?? TX_TTL_DEFAULT_MS)), TX_TTL_MAX_MS);
}
