import { graphBatchMutateInput, graphBatchMutateOutput } from '../../../core/coordination/graphContracts';
import { runIdempotent } from '../../../core/coordination/idempotencyRuns';
import { defineTool } from '../../toolDefinition';
import { idempotencySettings } from '../../features';
import { correlationOf } from './correlation';

export const graphBatchMutateTool = defineTool({
  name: 'graph_batch_mutate',
  title: 'Change a plan graph',
  description:
    "Apply operations to a stored plan graph in one transaction: all of them or none, refused when expected_version is not the committed version or another holder's lock protects it (E-GRAPH-MUTATION-LOCKED). A workflow's plan is the graph wf-<id> (nodes: its tasks, task-<id>; edges: depends_on, from the dependency to the task). changed: false keeps the version.",
  input: graphBatchMutateInput,
  output: graphBatchMutateOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services, features }) => {
    const correlation = correlationOf(args, args.graph_id);
    return {
      op_id: correlation.op_id,
      ...(await runIdempotent(
        services.engine,
        Date.now,
        { tool: 'graph_batch_mutate', key: args.idempotency_key, args, correlation },
        (tx) => services.graphs.batchMutateInTransaction(tx, args, { owner: args.owner, note: args.note, correlation }),
        idempotencySettings(features),
      )),
    };
  },
});

