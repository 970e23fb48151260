import { txApplyInput, txApplyOutput } from '../../../../core/coordination/plans/transactions/transactionContracts';
import { defineTool } from '../../../toolDefinition';
import { correlationOf } from '../correlation';

export const txApplyTool = defineTool({
  name: 'tx_apply',
  family: 'orchestrator',
  feature: 'tx',
  title: 'Change a transaction’s working copy',
  description:
    "Apply operations (as graph_mutate takes them) to an open transaction's working copy, all or none; nothing is committed yet. Refused when an operation breaks an invariant (cycle, dangling edge), when the transaction is unknown (E-TX-NOT-FOUND) or expired (E-TX-EXPIRED), or another holder's lock protects the graph. Each call keeps the transaction alive for its ttl_ms.",
  input: txApplyInput,
  output: txApplyOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => {
    const correlation = correlationOf(args);
    return { op_id: correlation.op_id, ...(await services.graphTransactions.apply(args, correlation)) };
  },
});
