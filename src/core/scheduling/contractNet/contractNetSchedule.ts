import { awardCall, effectiveScope } from './contractNet';
import type { CnpConflict, CnpDecision } from './contractNet';
import type { CnpAgent, CnpCall, RunningTask } from './contractNetModel';
import { compareText } from '../stigmergy/stigmergyField';

/**
 * One scheduling pass of the runner, pure: award every open call in announcement order, each
 * award raising the winner's load and adding the task to the running set before the next call
 * is judged, so two calls awarded in the same pass never get overlapping write scopes (unless
 * `allowOverlap`). Calls that cannot be awarded stay open and say why.
 */

/** What one scheduling pass decided. */
export interface ScheduleResult {
  /** Every call given, updated where awarded, in the order they were judged. */
  calls: CnpCall[];
  decisions: CnpDecision[];
  blocked: { call_id: string; task_id: string; reason: 'no_bids' | 'scope_conflict'; conflicts: CnpConflict[] }[];
  /** Agents with their loads after the pass. */
  agents: CnpAgent[];
  /** Running tasks after the pass (the given ones plus the awarded). */
  running: RunningTask[];
}

/** Awards every open call in order, conflict-aware (see above); the inputs are never changed. */
export function assignOpenCalls(
  calls: readonly CnpCall[],
  agents: readonly CnpAgent[],
  running: readonly RunningTask[],
  now: number,
  options: { allowOverlap?: boolean } = {},
): ScheduleResult {
  const order = [...calls].sort((a, b) => a.announced_at - b.announced_at || compareText(a.call_id, b.call_id));
  let team = agents.map((a) => ({ ...a }));
  const active = [...running];
  const out: CnpCall[] = [];
  const decisions: CnpDecision[] = [];
  const blocked: ScheduleResult['blocked'] = [];
  for (const call of order) {
    if (call.status !== 'open') {
      out.push(call);
      continue;
    }
    const outcome = awardCall(call, team, active, now, { allowOverlap: options.allowOverlap });
    out.push(outcome.call);
    if (outcome.decision === null) {
      blocked.push({
        call_id: call.call_id,
        task_id: call.task_id,
        reason: outcome.reason,
        conflicts: outcome.conflicts,
      });
      continue;
    }
    const winner = outcome.decision.agent_id;
    decisions.push(outcome.decision);
    team = team.map((a) => (a.id === winner ? { ...a, load: a.load + 1 } : a));
    const agent = team.find((a) => a.id === winner);
    active.push({
      taskId: call.task_id,
      agentId: winner,
      writeScope: agent ? effectiveScope(call, agent) : call.writeScope,
    });
  }
  return { calls: out, decisions, blocked, agents: team, running: active };
}
