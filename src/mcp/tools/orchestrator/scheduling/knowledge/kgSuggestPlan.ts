import { kgSuggestPlanInput, kgSuggestPlanResult } from '../../../../../core/scheduling/knowledge/knowledgeContracts';
import { defineTool } from '../../../../toolDefinition';

export const kgSuggestPlanTool = defineTool({
  name: 'kg_suggest_plan',
  family: 'orchestrator',
  feature: 'assist',
  title: 'Suggest a plan',
  description:
    'Plan fragments for a goal from what worked before (plans inserted as facts and finished workflows): up to max_fragments (1–5) fragments, preferred sources first, excluded tasks left out; coverage lists the tasks suggested and the dependencies missing (excluded) or unknown; rationale says why. Each fragment also comes as a ready graph_patch (patches[]): pass its graph_id, patch and base_version to graph_patch; name the target graph with graph_id so nodes and edges it already has are skipped.',
  input: kgSuggestPlanInput,
  output: kgSuggestPlanResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) =>
    services.scheduling.knowledge.suggestPlan(args.goal, args.context ?? {}, args.graph_id),
});
