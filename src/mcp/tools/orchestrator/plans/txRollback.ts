import {
  txRollbackInput,
  txRollbackOutput,
} from '../../../../core/coordination/plans/transactions/transactionContracts';
import { defineTool } from '../../../toolDefinition';
import { correlationOf } from '../correlation';

export const txRollbackTool = defineTool({
  name: 'tx_rollback',
  family: 'orchestrator',
  feature: 'tx',
  title: 'Roll back a plan-graph transaction',
  description:
    'End a transaction without committing anything; the answer carries the graph it began on. A transaction that had already expired is removed all the same and the answer says expired: true; an unknown tx_id is refused (E-TX-NOT-FOUND).',
  input: txRollbackInput,
  output: txRollbackOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => {
    const correlation = correlationOf(args);
    return { op_id: correlation.op_id, ...(await services.graphTransactions.rollback(args.tx_id, correlation)) };
  },
});
