import { graphMutateInput, graphMutateOutput } from '../../../../core/coordination/plans/graphContracts';
import { applyGraphMutations } from '../../../../core/coordination/plans/graphMutations';
import { opIdFor } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { normaliseGraph } from '../../../../core/coordination/plans/planGraph';
import { defineTool } from '../../../toolDefinition';

export const graphMutateTool = defineTool({
  name: 'graph_mutate',
  family: 'orchestrator',
  title: 'Transform a graph',
  description:
    'Apply operations (add/remove/rename node, add/remove edge, set attributes, patch metadata) to a graph given inline and return the result; nothing is stored. Use graph_batch_mutate to change a stored plan graph.',
  input: graphMutateInput,
  output: graphMutateOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args) => {
    const result = applyGraphMutations(
      normaliseGraph(args.graph, { graph_id: args.graph.graph_id ?? 'inline' }),
      args.operations,
    );
    return { op_id: opIdFor(args), graph: result.graph, applied: result.applied };
  },
});
