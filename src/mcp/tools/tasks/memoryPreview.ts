import { memoryPreviewInput, memoryPreviewOutput } from '../../../core/memory/memoryContracts';
import { defineTool } from '../../toolDefinition';

export const memoryPreviewTool = defineTool({
  name: 'memory_preview',
  family: 'tasks',
  title: 'Preview Memory Bank context',
  description:
    'Preview the context that will be passed to AI: a summary and a file reference per active entry, under a size budget (the project://memory resource).',
  input: memoryPreviewInput,
  output: memoryPreviewOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.memory.preview(args.maxChars),
});
