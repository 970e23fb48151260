import { patternCovers, patternsOverlap } from '../../tasks/scopeOverlap';
import type { PheromoneBounds } from '../stigmergy/stigmergySnapshot';

/**
 * Contract-net data and cost formulas. A call puts a task out for bids; agents bid by hand or
 * get automatic ("heuristic") bids computed from their definition. The formulas are those of
 * the public implementation of the orchestrator seed (src/coord/contractNet.ts):
 *   heuristic cost   = base_cost / reliability        (reliability clamped to [0.1, 1])
 *   effective cost   = cost + busy_penalty × load × pheromone_pressure
 *                      − preference_bonus (preferred agents) − agent_bias[agent]
 *   pheromone_pressure = 1 without bounds or when ceiling ≤ min;
 *                      1 + min((ceiling − min) / (max − min), 1) with a finite max;
 *                      1 + ln(1 + ceiling − min) without one.
 * Here "reliability" is how well the agent's scope and tags fit the task (`scopeFit`), and
 * "load" is the number of tasks the agent is running now.
 */

/** manual: made by an agent or a person; heuristic: computed from the agent's definition. */
export type CnpBidKind = 'manual' | 'heuristic';
/** open: taking bids; awarded: assigned; completed: the task ended. */
export type CnpCallStatus = 'open' | 'awarded' | 'completed';

/** A bid, as the tools show it. */
export interface CnpBid {
  agent_id: string;
  cost: number;
  submitted_at: number;
  kind: CnpBidKind;
  /** Heuristic bids carry `reason` (`auto` / `auto_refresh`), `pheromone_pressure`, `scope_fit`, `tag_fit`. */
  metadata: Record<string, unknown>;
}

/** How bids of a call are compared. */
export interface CnpHeuristics {
  prefer_agents: string[];
  agent_bias: Record<string, number>;
  busy_penalty: number;
  preference_bonus: number;
}

/** Correlation ids carried by a call and its events (null where unknown). */
export interface CnpCorrelation {
  run_id: string | null;
  op_id: string | null;
  job_id: string | null;
  graph_id: string | null;
  node_id: string | null;
  child_id: string | null;
}

/** A call for bids on one task. Plain data: persist it as it is. */
export interface CnpCall {
  call_id: string;
  task_id: string;
  payload: unknown;
  tags: string[];
  metadata: Record<string, unknown>;
  /** How long after `announced_at` manual bids are accepted (null: no deadline). */
  deadline_ms: number | null;
  heuristics: CnpHeuristics;
  pheromone_bounds: PheromoneBounds | null;
  auto_bid_enabled: boolean;
  status: CnpCallStatus;
  announced_at: number;
  awarded_agent_id: string | null;
  awarded_at: number | null;
  bids: CnpBid[];
  correlation: CnpCorrelation | null;
  /** Agents whose heuristic bids the last announce/refresh reissued, sorted. */
  refreshed_agents: string[];
  auto_bid_refreshed: boolean;
  /** Our addition: the globs/paths the task will write (its areas); [] = not declared. */
  writeScope: string[];
}

/** An agent able to take tasks: its definition's write scope and tags, and its current load. */
export interface CnpAgent {
  id: string;
  /** Globs the agent may change; [] = read only. */
  write: string[];
  exclude: string[];
  /** Skills matched against a call's tags (lower case). */
  tags: string[];
  /** Cost of a task that fits perfectly (default 100, as in the public implementation). */
  baseCost: number;
  /** Tasks the agent is running now. */
  load: number;
}

/** A task that is running now and the scope it may write. */
export interface RunningTask {
  taskId: string;
  agentId: string | null;
  writeScope: string[];
}

/** Defaults of the public implementation: base cost, busy penalty, preference bonus. */
export const defaultBaseCost = 100;
export const defaultBusyPenalty = 1;
export const defaultPreferenceBonus = 1;

/** The factor the busy penalty is multiplied by, from a call's bounds. */
export function computePheromonePressure(bounds: PheromoneBounds | null): number {
  if (!bounds) return 1;
  const observed = Math.max(bounds.normalisation_ceiling - bounds.min_intensity, 0);
  if (observed <= 0) return 1;
  const max = bounds.max_intensity;
  if (max !== null && Number.isFinite(max)) {
    const span = Math.max(max - bounds.min_intensity, 0);
    if (span > 0) return 1 + Math.min(observed / span, 1);
  }
  return 1 + Math.log1p(observed);
}

/** How well an agent fits a call, each in [0, 1]. */
export interface ScopeFit {
  /** Mean over the call's write patterns: 1 covered, 0.5 partly writable, 0 not writable. */
  scope: number;
  /** Share of the call's tags the agent has (1 when the call has none). */
  tags: number;
  /** Can the agent take the call at all (it can write part of every area)? */
  eligible: boolean;
}

/** Scope and tag fit of an agent for a call's write scope and tags. */
export function scopeFit(agent: CnpAgent, writeScope: readonly string[], tags: readonly string[]): ScopeFit {
  const skills = new Set(agent.tags.map((t) => t.trim().toLowerCase()));
  const tagShare = tags.length === 0 ? 1 : tags.filter((t) => skills.has(t.trim().toLowerCase())).length / tags.length;
  if (writeScope.length === 0) return { scope: 1, tags: tagShare, eligible: true };
  const fits = writeScope.map((area): number => {
    if (agent.exclude.some((x) => patternCovers(x, area))) return 0;
    const excluded = agent.exclude.some((x) => patternsOverlap(x, area));
    if (agent.write.some((w) => patternCovers(w, area))) return excluded ? 0.5 : 1;
    return agent.write.some((w) => patternsOverlap(w, area)) ? 0.5 : 0;
  });
  return { scope: fits.reduce((s, f) => s + f, 0) / fits.length, tags: tagShare, eligible: fits.every((f) => f > 0) };
}

/** The cost of an automatic bid: base cost over the fit (the public "reliability"). */
export function heuristicCost(agent: CnpAgent, fit: ScopeFit): number {
  const reliability = Math.min(1, Math.max(0.1, 0.75 * fit.scope + 0.25 * fit.tags));
  const base = Number.isFinite(agent.baseCost) && agent.baseCost > 0 ? agent.baseCost : defaultBaseCost;
  return base / reliability;
}

/** The cost a bid is compared with at award time. */
export function effectiveCost(call: CnpCall, bid: CnpBid, load: number): number {
  const pressure = computePheromonePressure(call.pheromone_bounds);
  const preferred = call.heuristics.prefer_agents.includes(bid.agent_id) ? call.heuristics.preference_bonus : 0;
  const bias = call.heuristics.agent_bias[bid.agent_id] ?? 0;
  return bid.cost + call.heuristics.busy_penalty * load * pressure - preferred - bias;
}

/** Heuristics with the public implementation's defaults and clamps. */
export function normaliseHeuristics(input: Partial<CnpHeuristics> | undefined): CnpHeuristics {
  const finite = (v: number | undefined, d: number) =>
    typeof v === 'number' && Number.isFinite(v) ? Math.max(0, v) : d;
  const bias: Record<string, number> = {};
  for (const [id, v] of Object.entries(input?.agent_bias ?? {})) if (Number.isFinite(v)) bias[id] = v;
  return {
    prefer_agents: [...new Set((input?.prefer_agents ?? []).map((a) => a.trim()).filter((a) => a.length > 0))],
    agent_bias: bias,
    busy_penalty: finite(input?.busy_penalty, defaultBusyPenalty),
    preference_bonus: finite(input?.preference_bonus, defaultPreferenceBonus),
  };
}

/** Tags are trimmed, lower-cased, de-duplicated and sorted. */
export function normaliseTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim().toLowerCase()).filter((t) => t.length > 0))].sort();
}

/** Correlation ids, or null when none is set. */
export function normaliseCorrelation(
  input: Partial<Record<keyof CnpCorrelation, string | null | undefined>> | undefined | null,
): CnpCorrelation | null {
  const pick = (v: string | null | undefined) => (typeof v === 'string' && v.trim().length > 0 ? v.trim() : null);
  const c: CnpCorrelation = {
    run_id: pick(input?.run_id),
    op_id: pick(input?.op_id),
    job_id: pick(input?.job_id),
    graph_id: pick(input?.graph_id),
    node_id: pick(input?.node_id),
    child_id: pick(input?.child_id),
  };
  return Object.values(c).some((v) => v !== null) ? c : null;
}

/** Agent definitions (name, scope, config) and loads turned into bidders. */
export function agentsFromDefinitions(
  definitions: readonly {
    name: string;
    scope: { write: readonly string[]; exclude: readonly string[] };
    config?: Record<string, unknown>;
  }[],
  loads: Readonly<Record<string, number>>,
): CnpAgent[] {
  return definitions.map((d) => {
    const config = d.config ?? {};
    const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    const cost = config.base_cost ?? config.baseCost;
    return {
      id: d.name,
      write: [...d.scope.write],
      exclude: [...d.scope.exclude],
      tags: normaliseTags([...list(config.tags), ...list(config.skills)]),
      baseCost: typeof cost === 'number' && Number.isFinite(cost) && cost > 0 ? cost : defaultBaseCost,
      load: loads[d.name] ?? 0,
    };
  });
}
