import { graphUnlockInput, graphUnlockOutput } from '../../../../core/coordination/plans/graphToolContracts';
import { defineTool } from '../../../toolDefinition';
import { correlationOf } from '../correlation';

export const graphUnlockTool = defineTool({
  name: 'graph_unlock',
  family: 'orchestrator',
  feature: 'locks',
  title: 'Unlock a plan graph',
  description:
    'Release a lock taken with graph_lock. A lock that had already lapsed is removed all the same and the answer says expired: true; an unknown lock_id is refused (E-LOCK-NOT-FOUND).',
  input: graphUnlockInput,
  output: graphUnlockOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => {
    const correlation = correlationOf(args);
    const released = await services.graphs.unlock(args.lock_id, correlation);
    return { op_id: correlation.op_id, ...released };
  },
});
