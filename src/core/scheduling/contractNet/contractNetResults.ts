import { stateError } from '../../errors';
import type { AwardOutcome, CnpConflict, CnpDecision, RefreshResult } from './contractNet';
import type { CnpCall } from './contractNetModel';
import type { CnpAnnounceResult, CnpAwardResult, CnpRefreshBoundsResult } from './contractNetContracts';

/** The contract-net tools' results from the pure transitions' outcomes (contractNetContracts.ts shapes). */

/** `cnp_announce`'s result: the call, its award if any, and why not otherwise. */
export function announceResult(
  outcome: AwardOutcome | { call: CnpCall; deferred: true },
  idempotency: { idempotent: boolean; key: string | null },
): CnpAnnounceResult {
  const base = { ...outcome.call, idempotent: idempotency.idempotent, idempotency_key: idempotency.key };
  if ('deferred' in outcome)
    return { ...base, awarded_cost: null, awarded_effective_cost: null, notAwardedReason: 'deferred', conflicts: [] };
  if (outcome.decision === null)
    return {
      ...base,
      awarded_cost: null,
      awarded_effective_cost: null,
      notAwardedReason: outcome.reason,
      conflicts: outcome.conflicts,
    };
  return {
    ...base,
    awarded_cost: outcome.decision.cost,
    awarded_effective_cost: outcome.decision.effective_cost,
    notAwardedReason: null,
    conflicts: overridden(outcome),
  };
}

/**
 * `cnp_award`'s result, or the coded error of a call that cannot be awarded: E-CNP-NO-BIDS
 * (nobody bid, or every bidder is gone) or E-CNP-SCOPE-CONFLICT (data.conflicts says with what).
 */
export function awardResult(outcome: AwardOutcome): CnpAwardResult {
  const decision = requireDecision(outcome);
  return { ...decision, conflicts: overridden(outcome) };
}

/** The decision of an outcome, or its coded error. */
export function requireDecision(outcome: AwardOutcome): CnpDecision {
  if (outcome.decision !== null) return outcome.decision;
  const id = outcome.call.call_id;
  if (outcome.reason === 'scope_conflict') {
    throw stateError(
      `call ${id} cannot be awarded: every bid may write files a running task writes (allowOverlap overrides)`,
      {
        error: 'E-CNP-SCOPE-CONFLICT',
        callId: id,
        conflicts: outcome.conflicts,
      },
    );
  }
  throw stateError(`call ${id} has no bids`, { error: 'E-CNP-NO-BIDS', callId: id });
}

/** `cnp_refresh_bounds`'s result. */
export function refreshBoundsResult(result: RefreshResult): CnpRefreshBoundsResult {
  return {
    call_id: result.call.call_id,
    auto_bid_refreshed: result.autoBidRefreshed,
    refreshed_agents: [...result.refreshedAgents],
    pheromone_bounds: result.call.pheromone_bounds,
    refresh: { ...result.refresh },
  };
}

/** Conflicts of the winning bid, when allowOverlap let it win anyway. */
function overridden(outcome: AwardOutcome): CnpConflict[] {
  if (outcome.decision === null) return [];
  const winner = outcome.decision.agent_id;
  return outcome.ranked.find((r) => r.bid.agent_id === winner)?.conflicts ?? [];
}
