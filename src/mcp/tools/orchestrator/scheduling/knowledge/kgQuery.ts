import { kgQueryInput, kgQueryResult } from '../../../../../core/scheduling/knowledge/knowledgeContracts';
import { defineTool } from '../../../../toolDefinition';

export const kgQueryTool = defineTool({
  name: 'kg_query',
  family: 'orchestrator',
  title: 'Find facts',
  description:
    'Facts matching a motif (subject, predicate, object, source; * matches any run of characters), in insertion order, one page at a time. Finished workflows are included as plans.',
  input: kgQueryInput,
  output: kgQueryResult,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => {
    const { limit, order, cursor, ...pattern } = args;
    return services.scheduling.knowledge.query(pattern, { limit, order, cursor });
  },
});
