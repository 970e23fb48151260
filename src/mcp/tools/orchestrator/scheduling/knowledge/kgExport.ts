import { kgExportInput, kgExportResult } from '../../../../../core/scheduling/knowledge/knowledgeContracts';
import { defineTool } from '../../../../toolDefinition';

export const kgExportTool = defineTool({
  name: 'kg_export',
  family: 'orchestrator',
  title: 'Export facts',
  description:
    'Every fact of the knowledge graph in insertion order, one page at a time (pass next_cursor back as cursor).',
  input: kgExportInput,
  output: kgExportResult,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) =>
    services.scheduling.knowledge.export({ limit: args.limit, cursor: args.cursor }),
});
