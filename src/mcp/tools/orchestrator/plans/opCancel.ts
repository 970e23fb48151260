import { opCancelInput, planRunOutput } from '../../../../core/runtime/planRuns/planRunContracts';
import { defineTool } from '../../../toolDefinition';
import { asTerminalPerson } from './terminalPerson';

export const opCancelTool = defineTool({
  name: 'op_cancel',
  family: 'orchestrator',
  feature: 'cancellation',
  title: 'Cancel one operation',
  description:
    "Cancel one operation by its op_id: a plan run's op_id cancels the run (as plan_cancel); the op_id of one launch of a task leaf (plan_status shows it) stops that task's agent and fails the leaf without retrying it, and the tree goes on as it says (a fallback runs, a parallel all stops starting new work).",
  input: opCancelInput,
  output: planRunOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  handler: (args, ctx) => asTerminalPerson(ctx, () => ctx.services.planRuns.cancelOp(args.op_id, args.reason)),
});
