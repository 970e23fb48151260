import { graphLockInput, graphLockOutput } from '../../../../core/coordination/plans/graphToolContracts';
import { defineTool } from '../../../toolDefinition';
import { correlationOf } from '../correlation';

export const graphLockTool = defineTool({
  name: 'graph_lock',
  family: 'orchestrator',
  feature: 'locks',
  title: 'Lock a plan graph',
  description:
    "Take a cooperative lock on a plan graph for a holder, for ttl_ms (default 10 minutes): other holders' graph_patch and graph_batch_mutate are refused with E-GRAPH-MUTATION-LOCKED until it is released or lapses. The same holder calling again refreshes it and keeps the lock_id; another holder is refused (E-LOCK-HELD), and so is anyone but its owner while a transaction on the graph is open (E-TX-OPEN).",
  input: graphLockInput,
  output: graphLockOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => {
    const correlation = correlationOf(args, args.graph_id);
    const lock = await services.graphs.lock(
      { graph_id: args.graph_id, holder: args.holder, ttl_ms: args.ttl_ms },
      correlation,
    );
    return {
      op_id: correlation.op_id,
      lock_id: lock.lock_id,
      graph_id: lock.graph_id,
      holder: lock.holder,
      acquired_at: lock.acquired_at,
      refreshed_at: lock.refreshed_at,
      expires_at: lock.expires_at,
    };
  },
});
