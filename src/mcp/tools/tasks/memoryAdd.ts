import { memoryAddInput, memoryOutput } from '../../../core/memory/memoryContracts';
import { defineTool } from '../../toolDefinition';

export const memoryAddTool = defineTool({
  name: 'memory_add',
  family: 'tasks',
  title: 'Add Memory Bank entry',
  description:
    'Add a Memory Bank entry: writes .agent-ledger/memory/<category>/<id>.md (never overwrites). Active entries are given to every worker.',
  input: memoryAddInput,
  output: memoryOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.memory.add(args),
});
