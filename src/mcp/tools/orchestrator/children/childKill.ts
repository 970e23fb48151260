import { childKillInput, childOutput } from '../../../../core/runtime/children/childContracts';
import { opIdFor } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const childKillTool = defineTool({
  name: 'child_kill',
  family: 'orchestrator',
  title: 'Stop child',
  description:
    'Stop a child runtime: SIGTERM to its whole process group, SIGKILL after grace_ms. Returns how it ended; an ended child is returned as it is.',
  input: childKillInput,
  output: childOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => services.children.kill(args.child_id, args.grace_ms, { op_id: opIdFor(args) }),
});
