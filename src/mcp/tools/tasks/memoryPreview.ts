import { z } from 'zod';
import { memoryPreviewInput } from '../../../core/memory/memoryContracts';
import { memoryPreviewResult } from '../../../core/memory/memoryResults';
import { defineTool } from '../../toolDefinition';

export const memoryPreviewTool = defineTool({
  name: 'memory_preview',
  family: 'tasks',
  title: 'Preview Memory Bank context',
  description: 'Preview the context that will be passed to AI: a summary and a file reference per active entry, under a size budget (the project://memory resource).',
  input: memoryPreviewInput,
  output: z.object({
    context: z.string().describe('Markdown given to workers ("" when no entry is active)'),
    entries: z.number().describe('Active entries in the context'),
    omitted: z.number().describe('Active entries left out by the size budget'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => memoryPreviewResult(services.memory, args),
});
