import { memoryListInput, memoryListOutput } from '../../../core/memory/memoryContracts';
import { defineTool } from '../../toolDefinition';

export const memoryListTool = defineTool({
  name: 'memory_list',
  family: 'tasks',
  title: 'List Memory Bank',
  description:
    'List Memory Bank entries (project decisions in .agent-ledger/memory/<category>/<id>.md, hand edits included), filtered by category and status.',
  input: memoryListInput,
  output: memoryListOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.memory.list(args),
});
