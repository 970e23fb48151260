import { z } from 'zod';
import { memoryListInput } from '../../../core/memory/memoryContracts';
import { memoryListResult } from '../../../core/memory/memoryResults';
import { defineTool } from '../../toolDefinition';
import { memoryOutput, problemOutput } from './outputs';

export const memoryListTool = defineTool({
  name: 'memory_list',
  family: 'tasks',
  title: 'List Memory Bank',
  description: 'List Memory Bank entries (project decisions in .agent-ledger/memory/<category>/<id>.md, hand edits included), filtered by category and status.',
  input: memoryListInput,
  output: z.object({ memories: z.array(memoryOutput), problems: z.array(problemOutput) }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => memoryListResult(services.memory, args),
});
