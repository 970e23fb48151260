import { graphDiffInput, graphDiffOutput } from '../../../../core/coordination/plans/graphToolContracts';
import { opIdFor } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const graphDiffTool = defineTool({
  name: 'graph_diff',
  family: 'orchestrator',
  feature: 'diff-patch',
  title: 'Diff plan graphs',
  description:
    'RFC 6902 patch between two sides of a plan graph — each { latest: true }, { version: N } or { graph: {...} } given inline — with which of name, metadata, nodes and edges differ. Paths name nodes by id (/nodes/<id>/attributes/status); graph_patch applies the patch.',
  input: graphDiffInput,
  output: graphDiffOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => {
    const diff = await services.graphs.diff(args.graph_id, args.from, args.to);
    return {
      op_id: opIdFor(args),
      graph_id: diff.graph_id,
      from: diff.from,
      to: diff.to,
      changed: diff.changed,
      operations: diff.operations,
      summary: diff.summary,
    };
  },
});
