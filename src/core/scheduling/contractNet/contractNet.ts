import { LedgerError, stateError, validationError } from '../../errors';
import {
  effectiveCost,
  heuristicCost,
  normaliseCorrelation,
  normaliseHeuristics,
  normaliseTags,
  scopeFit,
} from './contractNetModel';
import type { CnpAgent, CnpBid, CnpCall, CnpCorrelation, CnpHeuristics, RunningTask } from './contractNetModel';
import { computePheromonePressure } from './contractNetModel';
import { scopeOverlaps } from '../../tasks/scopeOverlap';
import type { OverlapPair } from '../../tasks/scopeOverlap';
import type { PheromoneBounds } from '../stigmergy/stigmergySnapshot';
import { compareText } from '../stigmergy/stigmergyField';

/**
 * Contract-net calls as pure state transitions: announce → (bids, bound refreshes) → award →
 * complete, each taking a call and returning a new one. Conflict-aware: a bid whose scope (the
 * task's write scope, or the agent's when the task declares none) may overlap the scope of a
 * running task is not awarded unless the caller says `allowOverlap`.
 */

/** What announcing needs (ids are made by the caller). */
export interface AnnounceInput {
  call_id: string;
  task_id: string;
  payload?: unknown;
  tags?: string[];
  metadata?: Record<string, unknown>;
  deadline_ms?: number | null;
  auto_bid?: boolean;
  heuristics?: Partial<CnpHeuristics>;
  manual_bids?: { agent_id: string; cost: number; metadata?: Record<string, unknown> }[];
  correlation?: Partial<CnpCorrelation> | null;
  pheromone_bounds?: PheromoneBounds | null;
  writeScope?: string[];
}

/** Opens a call; automatic bids (reason `auto`) for every eligible agent, then the manual ones. */
export function announceCall(input: AnnounceInput, agents: readonly CnpAgent[], now: number): CnpCall {
  if (!input.task_id.trim()) throw validationError('task_id must not be empty');
  const known = new Set(agents.map((a) => a.id));
  for (const bid of input.manual_bids ?? []) {
    if (!known.has(bid.agent_id))
      throw new LedgerError('AgentNotFound', `agent ${bid.agent_id} cannot bid: no such agent`, {
        agentId: bid.agent_id,
      });
    checkCost(bid.cost);
  }
  const deadline = input.deadline_ms;
  let call: CnpCall = {
    call_id: input.call_id,
    task_id: input.task_id,
    payload: input.payload ?? null,
    tags: normaliseTags(input.tags ?? []),
    metadata: { ...(input.metadata ?? {}) },
    deadline_ms:
      typeof deadline === 'number' && Number.isFinite(deadline) && deadline > 0 ? Math.floor(deadline) : null,
    heuristics: normaliseHeuristics(input.heuristics),
    pheromone_bounds: input.pheromone_bounds ? { ...input.pheromone_bounds } : null,
    auto_bid_enabled: input.auto_bid !== false,
    status: 'open',
    announced_at: now,
    awarded_agent_id: null,
    awarded_at: null,
    bids: [],
    correlation: normaliseCorrelation(input.correlation),
    refreshed_agents: [],
    auto_bid_refreshed: false,
    writeScope: [...new Set((input.writeScope ?? []).map((p) => p.trim()).filter((p) => p.length > 0))],
  };
  if (call.auto_bid_enabled) {
    const refreshed = reissueHeuristicBids(call, agents, 'auto', true, now);
    call = { ...refreshed.call, refreshed_agents: refreshed.agents, auto_bid_refreshed: refreshed.agents.length > 0 };
  }
  for (const bid of input.manual_bids ?? [])
    call = withBid(call, {
      agent_id: bid.agent_id,
      cost: bid.cost,
      submitted_at: now,
      kind: 'manual',
      metadata: { ...(bid.metadata ?? {}) },
    });
  return call;
}

/** Records (or replaces) an agent's manual bid on an open call. */
export function placeBid(
  call: CnpCall,
  bid: { agent_id: string; cost: number; metadata?: Record<string, unknown> },
  agents: readonly CnpAgent[],
  now: number,
): CnpCall {
  if (call.status !== 'open')
    throw stateError(`call ${call.call_id} is ${call.status}, not open for bids`, {
      error: 'E-CNP-CLOSED',
      callId: call.call_id,
    });
  if (call.deadline_ms !== null && now > call.announced_at + call.deadline_ms) {
    throw stateError(`call ${call.call_id} stopped taking bids at its deadline`, {
      error: 'E-CNP-DEADLINE',
      callId: call.call_id,
    });
  }
  if (!agents.some((a) => a.id === bid.agent_id))
    throw new LedgerError('AgentNotFound', `agent ${bid.agent_id} cannot bid: no such agent`, {
      agentId: bid.agent_id,
    });
  checkCost(bid.cost);
  return withBid(call, {
    agent_id: bid.agent_id,
    cost: bid.cost,
    submitted_at: now,
    kind: 'manual',
    metadata: { ...(bid.metadata ?? {}) },
  });
}

/** What a bounds refresh did. */
export interface RefreshResult {
  call: CnpCall;
  /** Agents whose heuristic bids were reissued (reason `auto_refresh`), sorted. */
  refreshedAgents: string[];
  autoBidRefreshed: boolean;
  /** The options as asked. */
  refresh: { requested: boolean; include_new_agents: boolean };
}

/**
 * Stores new bounds on an open call and, unless `refresh_auto_bids` is false (or the call has
 * automatic bids off), reissues the heuristic bids with the new pressure. Manual bids are kept
 * as they are; `include_new_agents` (default true) lets agents without a bid join.
 */
export function refreshCallBounds(
  call: CnpCall,
  bounds: PheromoneBounds | null,
  options: { refresh_auto_bids?: boolean; include_new_agents?: boolean },
  agents: readonly CnpAgent[],
  now: number,
): RefreshResult {
  if (call.status !== 'open')
    throw stateError(`call ${call.call_id} is ${call.status}, not open for updates`, {
      error: 'E-CNP-CLOSED',
      callId: call.call_id,
    });
  const requested = options.refresh_auto_bids !== false;
  const includeNew = options.include_new_agents ?? true;
  let next: CnpCall = { ...call, pheromone_bounds: bounds ? { ...bounds } : null };
  let refreshed: string[] = [];
  if (requested && call.auto_bid_enabled) {
    const r = reissueHeuristicBids(next, agents, 'auto_refresh', includeNew, now);
    next = r.call;
    refreshed = r.agents;
  }
  const autoBidRefreshed = refreshed.length > 0;
  next = { ...next, refreshed_agents: refreshed, auto_bid_refreshed: autoBidRefreshed };
  return {
    call: next,
    refreshedAgents: refreshed,
    autoBidRefreshed,
    refresh: { requested, include_new_agents: includeNew },
  };
}

/** A running task a bid would collide with. */
export interface CnpConflict {
  agentId: string;
  runningTaskId: string;
  runningAgentId: string | null;
  pairs: OverlapPair[];
}

/** One bid as the award sees it. */
export interface RankedBid {
  bid: CnpBid;
  load: number;
  effective_cost: number;
  /** Why it cannot win: `unknown_agent` or `scope_conflict` (null: it can). */
  excluded: 'unknown_agent' | 'scope_conflict' | null;
  conflicts: CnpConflict[];
}

/** Every bid, best first (lowest effective cost, then lower load, earlier bid, agent id). */
export function rankBids(
  call: CnpCall,
  agents: readonly CnpAgent[],
  running: readonly RunningTask[],
  allowOverlap = false,
): RankedBid[] {
  const byId = new Map(agents.map((a) => [a.id, a]));
  const memo = new Map<string, CnpConflict[]>();
  const ranked = call.bids.map((bid): RankedBid => {
    const agent = byId.get(bid.agent_id);
    const load = agent?.load ?? 0;
    const cost = effectiveCost(call, bid, load);
    if (!agent) return { bid, load, effective_cost: cost, excluded: 'unknown_agent', conflicts: [] };
    const scope = effectiveScope(call, agent);
    const key = scope.join('\u0000');
    let shared = memo.get(key);
    if (!shared) {
      shared = conflictsOf(call, agent, running);
      memo.set(key, shared);
    }
    const conflicts = shared.map((c) => ({ ...c, agentId: agent.id }));
    return {
      bid,
      load,
      effective_cost: cost,
      excluded: conflicts.length > 0 && !allowOverlap ? 'scope_conflict' : null,
      conflicts,
    };
  });
  return ranked.sort(
    (a, b) =>
      a.effective_cost - b.effective_cost ||
      a.load - b.load ||
      a.bid.submitted_at - b.bid.submitted_at ||
      compareText(a.bid.agent_id, b.bid.agent_id),
  );
}

/** The scope a task would write if this agent took it: the task's areas, else the agent's scope. */
export function effectiveScope(call: CnpCall, agent: CnpAgent): string[] {
  return call.writeScope.length > 0 ? call.writeScope : agent.write;
}

/** Running tasks (other than the call's own) whose write scope may overlap. */
export function conflictsOf(call: CnpCall, agent: CnpAgent, running: readonly RunningTask[]): CnpConflict[] {
  const scope = effectiveScope(call, agent);
  const out: CnpConflict[] = [];
  for (const r of running) {
    if (r.taskId === call.task_id) continue;
    const pairs = scopeOverlaps(scope, r.writeScope);
    if (pairs.length > 0) out.push({ agentId: agent.id, runningTaskId: r.taskId, runningAgentId: r.agentId, pairs });
  }
  return out;
}

/** The decision of an award (the public implementation's shape). */
export interface CnpDecision {
  call_id: string;
  agent_id: string;
  cost: number;
  effective_cost: number;
  awarded_at: number;
  bids: CnpBid[];
}

/** An award, or why there is none (the call stays open). */
export type AwardOutcome =
  | { call: CnpCall; decision: CnpDecision; ranked: RankedBid[] }
  | {
      call: CnpCall;
      decision: null;
      reason: 'no_bids' | 'scope_conflict';
      ranked: RankedBid[];
      conflicts: CnpConflict[];
    };

/**
 * Awards the call to its best eligible bid, or to `agentId` when given (it must have bid and,
 * unless `allowOverlap`, not conflict). An awarded or completed call answers its decision again.
 */
export function awardCall(
  call: CnpCall,
  agents: readonly CnpAgent[],
  running: readonly RunningTask[],
  now: number,
  options: { agentId?: string; allowOverlap?: boolean } = {},
): AwardOutcome {
  const ranked = rankBids(call, agents, running, options.allowOverlap === true);
  if (call.status !== 'open') {
    if (options.agentId && call.awarded_agent_id !== options.agentId) {
      throw stateError(`call ${call.call_id} is already awarded to ${call.awarded_agent_id}`, {
        error: 'E-CNP-AWARDED',
        callId: call.call_id,
      });
    }
    const won = ranked.find((r) => r.bid.agent_id === call.awarded_agent_id);
    if (!won || call.awarded_at === null)
      throw stateError(`call ${call.call_id} is ${call.status} without an award`, { callId: call.call_id });
    return { call, decision: decisionOf(call, won, call.awarded_at), ranked };
  }
  let pick: RankedBid | undefined;
  if (options.agentId) {
    pick = ranked.find((r) => r.bid.agent_id === options.agentId);
    if (!pick)
      throw stateError(`agent ${options.agentId} has not bid on call ${call.call_id}`, {
        error: 'E-CNP-NO-BID',
        callId: call.call_id,
      });
    if (pick.excluded === 'unknown_agent')
      throw new LedgerError('AgentNotFound', `agent ${options.agentId} no longer exists`, { agentId: options.agentId });
    if (pick.excluded === 'scope_conflict')
      return { call, decision: null, reason: 'scope_conflict', ranked, conflicts: pick.conflicts };
  } else {
    pick = ranked.find((r) => r.excluded === null);
    if (!pick) {
      const conflicts = ranked.flatMap((r) => r.conflicts);
      return { call, decision: null, reason: conflicts.length > 0 ? 'scope_conflict' : 'no_bids', ranked, conflicts };
    }
  }
  const awarded: CnpCall = { ...call, status: 'awarded', awarded_agent_id: pick.bid.agent_id, awarded_at: now };
  return { call: awarded, decision: decisionOf(awarded, pick, now), ranked };
}

/** Marks an awarded call completed (its task ended); completing twice is harmless. */
export function completeCall(call: CnpCall): CnpCall {
  if (call.status === 'completed') return call;
  if (call.status !== 'awarded')
    throw stateError(`call ${call.call_id} has not been awarded yet`, {
      error: 'E-CNP-NOT-AWARDED',
      callId: call.call_id,
    });
  return { ...call, status: 'completed' };
}

function decisionOf(call: CnpCall, won: RankedBid, at: number): CnpDecision {
  return {
    call_id: call.call_id,
    agent_id: won.bid.agent_id,
    cost: won.bid.cost,
    effective_cost: won.effective_cost,
    awarded_at: at,
    bids: call.bids,
  };
}

function reissueHeuristicBids(
  call: CnpCall,
  agents: readonly CnpAgent[],
  reason: 'auto' | 'auto_refresh',
  includeNew: boolean,
  now: number,
): { call: CnpCall; agents: string[] } {
  const pressure = computePheromonePressure(call.pheromone_bounds);
  const known = new Set(agents.map((a) => a.id));
  // One copy of the bids, changed in place: each bid goes where it belongs (no sort per bid).
  const bids = call.bids.filter((b) => b.kind === 'manual' || known.has(b.agent_id));
  const byAgent = new Map(bids.map((b) => [b.agent_id, b]));
  const refreshed: string[] = [];
  for (const agent of agents) {
    const existing = byAgent.get(agent.id);
    if (existing?.kind === 'manual' || (!existing && !includeNew)) continue;
    const fit = scopeFit(agent, call.writeScope, call.tags);
    if (!fit.eligible) {
      if (existing) removeBid(bids, existing);
      byAgent.delete(agent.id);
      continue;
    }
    const metadata = { reason, pheromone_pressure: pressure, scope_fit: fit.scope, tag_fit: fit.tags };
    const bid: CnpBid = {
      agent_id: agent.id,
      cost: heuristicCost(agent, fit),
      submitted_at: now,
      kind: 'heuristic',
      metadata,
    };
    if (existing) removeBid(bids, existing);
    insertBid(bids, bid);
    byAgent.set(agent.id, bid);
    refreshed.push(agent.id);
  }
  return { call: { ...call, bids }, agents: refreshed.sort(compareText) };
}

/** The call with `bid` in place of the agent's previous one, bids kept in order (submitted_at, then agent). */
function withBid(call: CnpCall, bid: CnpBid): CnpCall {
  const bids = call.bids.filter((b) => b.agent_id !== bid.agent_id);
  insertBid(bids, bid);
  return { ...call, bids };
}

function bidOrder(a: CnpBid, b: CnpBid): number {
  return a.submitted_at - b.submitted_at || compareText(a.agent_id, b.agent_id);
}

/** Inserts `bid` into bids already in order, after those that do not come after it (binary search). */
function insertBid(bids: CnpBid[], bid: CnpBid): void {
  let lo = 0;
  let hi = bids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (bidOrder(bids[mid], bid) <= 0) lo = mid + 1;
    else hi = mid;
  }
  bids.splice(lo, 0, bid);
}

function removeBid(bids: CnpBid[], bid: CnpBid): void {
  const at = bids.indexOf(bid);
  if (at >= 0) bids.splice(at, 1);
}

function checkCost(cost: number): void {
  if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0)
    throw validationError('cost must be a non-negative finite number', { error: 'E-CNP-COST' });
}
