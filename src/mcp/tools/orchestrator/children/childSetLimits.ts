import { childSetLimitsInput, childOutput } from '../../../../core/runtime/children/childContracts';
import { opIdFor } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const childSetLimitsTool = defineTool({
  name: 'child_set_limits',
  family: 'orchestrator',
  feature: 'child-ops-fine',
  title: 'Set child limits',
  description:
    'Change the limits of a running child: the wall clock (still counted from its start), output budget and idle limit apply at once; messages bounds child_send. Returns the manifest and runtime status.',
  input: childSetLimitsInput,
  output: childOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) =>
    services.children.setLimits(args.child_id, args.limits, { run_id: args.run_id, op_id: opIdFor(args) }),
});
