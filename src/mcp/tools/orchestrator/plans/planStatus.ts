import { planStatusInput, planStatusOutput } from '../../../../core/runtime/planRuns/planRunContracts';
import { defineTool } from '../../../toolDefinition';
import { attachPlanToolCaller } from './planToolCaller';

export const planStatusTool = defineTool({
  name: 'plan_status',
  family: 'orchestrator',
  feature: 'plan-lifecycle',
  waits: true,
  title: 'See where a plan run stands',
  description:
    "A plan run's state: running, paused, succeeded, failed or cancelled, why, and each node — waiting (for what), running (which task, agent and execution), done, failed, skipped — with its cost so far and overall progress. Without run_id, the newest runs. wait_ms waits for the run to end.",
  input: planStatusInput,
  output: planStatusOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, ctx) => {
    if (args.run_id === undefined) return { runs: await ctx.services.planRuns.status() };
    if (args.wait_ms > 0) attachPlanToolCaller(ctx);
    return { runs: [await ctx.services.planRuns.waitForEnd(args.run_id, args.wait_ms)] };
  },
});
