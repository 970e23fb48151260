import { childLogsInput, childLogsOutput } from '../../../../core/runtime/children/childContracts';
import { opIdFor } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const childLogsTool = defineTool({
  name: 'child_logs',
  family: 'orchestrator',
  waits: true,
  title: 'Read child log',
  description:
    'Lines a child printed (stdout, stderr) and what the supervisor noted (start, limits, exit), after from_seq, as they are written. With nothing new yet and the child running, waits up to wait_ms for a line; pass next_seq back as from_seq.',
  input: childLogsInput,
  output: childLogsOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) =>
    services.children.logs(
      args.child_id,
      { fromSeq: args.from_seq, limit: args.limit, waitMs: args.wait_ms },
      opIdFor(args),
    ),
});
