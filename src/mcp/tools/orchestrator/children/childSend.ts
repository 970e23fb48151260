import { childSendInput, childSendOutput } from '../../../../core/runtime/children/childContracts';
import { opIdFor } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const childSendTool = defineTool({
  name: 'child_send',
  family: 'orchestrator',
  title: 'Send to child',
  description:
    'Write to the input of a running child started by this server: text as is (a newline added), anything else as one JSON line. Read what it answers with child_logs.',
  input: childSendInput,
  output: childSendOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  handler: async (args, { services }) => services.children.send(args.child_id, args.payload, { op_id: opIdFor(args) }),
});
