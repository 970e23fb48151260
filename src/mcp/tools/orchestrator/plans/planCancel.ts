import { planCancelInput, planRunOutput } from '../../../../core/runtime/planRuns/planRunContracts';
import { defineTool } from '../../../toolDefinition';
import { asTerminalPerson } from './terminalPerson';

export const planCancelTool = defineTool({
  name: 'plan_cancel',
  family: 'orchestrator',
  feature: 'cancellation',
  title: 'Cancel a plan run',
  description:
    "Cancel a plan run: nothing more starts, the run's running agents are stopped (their tasks cancelled), and every node that had not ended is marked cancelled or skipped. not_stopped names agents run by a runner on another machine, to stop there.",
  input: planCancelInput,
  output: planRunOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  handler: (args, ctx) => asTerminalPerson(ctx, () => ctx.services.planRuns.cancel(args.run_id, args.reason)),
});
