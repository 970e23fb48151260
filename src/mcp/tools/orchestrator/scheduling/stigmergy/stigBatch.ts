import { stigBatchInput, stigBatchResult } from '../../../../../core/scheduling/stigmergy/stigmergyContracts';
import { defineTool } from '../../../../toolDefinition';

export const stigBatchTool = defineTool({
  name: 'stig_batch',
  family: 'orchestrator',
  title: 'Mark several areas',
  description:
    'Add up to 200 marks as one: if one entry is invalid (empty node or type, intensity not positive) none is applied, the field stays as it was and the error lists every bad entry (E-BULK-PARTIAL).',
  input: stigBatchInput,
  output: stigBatchResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => ({ changes: await services.scheduling.stigmergy.batch(args.entries) }),
});
