import { stigMarkInput, stigMarkResult } from '../../../../../core/scheduling/stigmergy/stigmergyContracts';
import { defineTool } from '../../../../toolDefinition';

export const stigMarkTool = defineTool({
  name: 'stig_mark',
  family: 'orchestrator',
  title: 'Mark an area',
  description:
    'Mark a file, folder or write-scope glob as being worked on ("scope:task-12" for a running task’s areas, "changed:task-12" for a file it changed). Marks add up, fade with time and disappear when their task ends; every process of the workspace sees them.',
  input: stigMarkInput,
  output: stigMarkResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => services.scheduling.stigmergy.mark(args),
});
