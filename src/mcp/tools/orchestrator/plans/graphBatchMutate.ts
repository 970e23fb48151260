import { graphBatchMutateInput, graphBatchMutateOutput } from '../../../../core/coordination/plans/graphContracts';
import { defineTool } from '../../../toolDefinition';
import { idempotentChange } from '../idempotentChange';
import { graphAnswerRecord } from '../../../../core/coordination/plans/graphAnswerRecord';
import { correlationOf } from '../correlation';

export const graphBatchMutateTool = defineTool({
  name: 'graph_batch_mutate',
  family: 'orchestrator',
  feature: 'bulk',
  idempotent: true,
  title: 'Change a plan graph',
  description:
    "Apply operations to a stored plan graph in one transaction: all of them or none, refused when expected_version is not the committed version or another holder's lock protects it (E-GRAPH-MUTATION-LOCKED). A workflow's plan is the graph wf-<id> (nodes: its tasks, task-<id>; edges: depends_on, from the dependency to the task). changed: false keeps the version.",
  input: graphBatchMutateInput,
  output: graphBatchMutateOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, ctx) => {
    const correlation = correlationOf(args, args.graph_id);
    return idempotentChange(
      'graph_batch_mutate',
      args,
      correlation,
      ctx,
      (tx) =>
        ctx.services.graphs.batchMutateInTransaction(tx, args, { owner: args.owner, note: args.note, correlation }),
      graphAnswerRecord,
    );
  },
});
