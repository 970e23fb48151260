import { txCommitInput, txCommitOutput } from '../../../../core/coordination/plans/transactions/transactionContracts';
import { defineTool } from '../../../toolDefinition';
import { correlationOf } from '../correlation';

export const txCommitTool = defineTool({
  name: 'tx_commit',
  family: 'orchestrator',
  feature: 'tx',
  title: 'Commit a plan-graph transaction',
  description:
    "Commit an open transaction as the graph's next version. When the graph moved since tx_begin, the commit still goes through if the two sets of changes commute — no node, edge, attribute, label or metadata key changed differently by both, and the merged graph keeps its invariants — and says merged: true; otherwise it is refused with E-TX-CONFLICT naming the places both changed, and the transaction stays open to be rolled back. Refused too when another holder's lock protects the graph (E-GRAPH-MUTATION-LOCKED), or the transaction is unknown or expired.",
  input: txCommitInput,
  output: txCommitOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => {
    const correlation = correlationOf(args);
    return { op_id: correlation.op_id, ...(await services.graphTransactions.commit(args.tx_id, correlation)) };
  },
});
