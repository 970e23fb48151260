import { childAttachInput, childOutput } from '../../../../core/runtime/children/childContracts';
import { opIdFor } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const childAttachTool = defineTool({
  name: 'child_attach',
  family: 'orchestrator',
  feature: 'child-ops-fine',
  title: 'Attach to child',
  description:
    'Attach to an existing child runtime (started by any server process of the workspace): records attached_at and the run and operation ids, and returns its manifest and runtime status.',
  input: childAttachInput,
  output: childOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) =>
    services.children.attach(args.child_id, { run_id: args.run_id, op_id: opIdFor(args) }),
});
