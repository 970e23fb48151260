import { txBeginInput, txBeginOutput } from '../../../../core/coordination/plans/transactions/transactionContracts';
import { defineTool } from '../../../toolDefinition';
import { idempotentChange } from '../idempotentChange';
import { correlationOf } from '../correlation';

export const txBeginTool = defineTool({
  name: 'tx_begin',
  family: 'orchestrator',
  feature: 'tx',
  idempotent: true,
  title: 'Begin a plan-graph transaction',
  description:
    "Open a transaction on a stored plan graph: a working copy at its committed version that tx_apply changes and tx_commit commits (or tx_rollback drops). Refused when expected_version is not the committed version (E-TX-CONFLICT) or another holder's lock protects the graph (E-GRAPH-MUTATION-LOCKED). While open it keeps other holders from graph_lock; unused for ttl_ms (default 5 minutes) it expires.",
  input: txBeginInput,
  output: txBeginOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: (args, ctx) => {
    const correlation = correlationOf(args, args.graph_id);
    return idempotentChange('tx_begin', args, correlation, ctx, (tx) =>
      ctx.services.graphTransactions.beginInTransaction(tx, args, correlation),
    );
  },
});
