import { childStatusInput, childOutput } from '../../../../core/runtime/children/childContracts';
import { opIdFor } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const childStatusTool = defineTool({
  name: 'child_status',
  family: 'orchestrator',
  title: 'Child status',
  description:
    'Manifest and runtime status of a child runtime: running, exited (exit code, signal, the limit that ended it), failed to start, or lost with its server.',
  input: childStatusInput,
  output: childOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => services.children.status(args.child_id, opIdFor(args)),
});
