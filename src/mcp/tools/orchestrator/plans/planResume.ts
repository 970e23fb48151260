import { planRunOutput, planRunRefInput } from '../../../../core/runtime/planRuns/planRunContracts';
import { defineTool } from '../../../toolDefinition';
import { asTerminalPerson } from './terminalPerson';
import { attachPlanToolCaller } from './planToolCaller';

export const planResumeTool = defineTool({
  name: 'plan_resume',
  family: 'orchestrator',
  feature: 'plan-lifecycle',
  title: 'Resume a paused plan run',
  description: 'Resume a paused plan: what is ready is queued for its agents again, and the run goes on.',
  input: planRunRefInput,
  output: planRunOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, ctx) => {
    attachPlanToolCaller(ctx);
    return asTerminalPerson(ctx, () => ctx.services.planRuns.resume(args.run_id));
  },
});
