import type { ToolContext } from '../../../toolDefinition';
import type { PlanRunBtInput, PlanRunReactiveInput } from '../../../../core/runtime/planRuns/planRunContracts';
import type { RunMode } from '../../../../core/runtime/planRuns/planRunRows';
import { idempotentChange } from '../idempotentChange';
import { correlationOf } from '../correlation';
import { attachPlanToolCaller } from './planToolCaller';

/**
 * plan_run_bt and plan_run_reactive: the run is recorded and takes its first tick in one write
 * under the call's idempotency key (a retried call starts nothing twice and answers the first
 * answer); then what follows the commit, and the wait asked for.
 */
export async function startPlanRun(
  tool: 'plan_run_bt' | 'plan_run_reactive',
  mode: RunMode,
  args: PlanRunBtInput | PlanRunReactiveInput,
  ctx: ToolContext,
) {
  const knownTool = attachPlanToolCaller(ctx);
  const correlation = correlationOf(args, args.graph_id ?? null);
  let started: Awaited<ReturnType<typeof ctx.services.planRuns.startIn>> | undefined;
  const answer = await idempotentChange(tool, args, correlation, ctx, async (tx) => {
    started = await ctx.services.planRuns.startIn(tx, args, mode, { opId: correlation.op_id, knownTool });
    return started.output;
  });
  if (!started) return answer;
  const now = await ctx.services.planRuns.afterStart(started.runId, started.after, {
    mode,
    tickMs: 'tick_ms' in args ? args.tick_ms : undefined,
    waitMs: args.wait_ms,
  });
  return { ...answer, ...now };
}
