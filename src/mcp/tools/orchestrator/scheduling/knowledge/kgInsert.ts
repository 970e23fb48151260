import { kgInsertInput, kgInsertResult } from '../../../../../core/scheduling/knowledge/knowledgeContracts';
import { defineTool } from '../../../../toolDefinition';

export const kgInsertTool = defineTool({
  name: 'kg_insert',
  family: 'orchestrator',
  title: 'Add facts',
  description:
    'Add facts (subject, predicate, object) to the knowledge graph, all or none. A plan is written as (goal, "includes", task) and (task:<task>, "depends_on", other task), with "label", "duration" or "weight" facts on task:<task>.',
  input: kgInsertInput,
  output: kgInsertResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => services.scheduling.knowledge.insert(args.triples),
});
