import { planRunOutput, planRunRefInput } from '../../../../core/runtime/planRuns/planRunContracts';
import { defineTool } from '../../../toolDefinition';
import { asTerminalPerson } from './terminalPerson';

export const planPauseTool = defineTool({
  name: 'plan_pause',
  family: 'orchestrator',
  feature: 'plan-lifecycle',
  title: 'Pause a plan run',
  description:
    'Pause a running plan: nothing new starts, tasks it queued that no agent took yet go back to open, and the agents already running finish their tasks. plan_resume goes on.',
  input: planRunRefInput,
  output: planRunOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, ctx) => asTerminalPerson(ctx, () => ctx.services.planRuns.pause(args.run_id)),
});
