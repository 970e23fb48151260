import { graphPatchInput, graphPatchOutput } from '../../../../core/coordination/plans/graphToolContracts';
import { defineTool } from '../../../toolDefinition';
import { idempotentChange } from '../idempotentChange';
import { graphAnswerRecord } from '../../../../core/coordination/plans/graphAnswerRecord';
import { correlationOf } from '../correlation';

export const graphPatchTool = defineTool({
  name: 'graph_patch',
  family: 'orchestrator',
  feature: 'diff-patch',
  idempotent: true,
  title: 'Patch a plan graph',
  description:
    "Apply an RFC 6902 patch (as graph_diff returns) to a stored plan graph and commit the result as a new version, all or nothing. Refused when base_version is not the committed version (E-TX-CONFLICT), when the result breaks an invariant — cycle, dangling edge, duplicate id — unless enforce_invariants is false for cycles, or when another holder's lock protects the graph (E-GRAPH-MUTATION-LOCKED).",
  input: graphPatchInput,
  output: graphPatchOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, ctx) => {
    const correlation = correlationOf(args, args.graph_id);
    return idempotentChange(
      'graph_patch',
      args,
      correlation,
      ctx,
      async (tx) => {
        const r = await ctx.services.graphs.patchInTransaction(tx, args, {
          owner: args.owner,
          note: args.note,
          correlation,
        });
        return {
          graph_id: r.graph_id,
          base_version: r.base_version,
          committed_version: r.committed_version,
          changed: r.changed,
          operations_applied: r.operations_applied,
          invariants:
            r.invariants === null
              ? null
              : r.invariants.ok
                ? { ok: true as const }
                : { ok: false as const, violations: r.invariants.violations },
          graph: r.graph,
        };
      },
      graphAnswerRecord,
    );
  },
});
