import { childSetRoleInput, childOutput } from '../../../../core/runtime/children/childContracts';
import { opIdFor } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const childSetRoleTool = defineTool({
  name: 'child_set_role',
  family: 'orchestrator',
  feature: 'child-ops-fine',
  title: 'Set child role',
  description:
    'Change the role of a child runtime (a label kept in its manifest). Returns the manifest and runtime status.',
  input: childSetRoleInput,
  output: childOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) =>
    services.children.setRole(args.child_id, args.role, { run_id: args.run_id, op_id: opIdFor(args) }),
});
