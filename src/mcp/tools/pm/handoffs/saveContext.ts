import { saveContextInput, saveContextOutput } from '../../../../core/runtime/pm/handoffContracts';
import { defineTool } from '../../../toolDefinition';

export const saveContextTool = defineTool({
  name: 'save_context',
  family: 'pm',
  title: 'Save task context',
  description: 'Save where a task stands (progress, findings, blockers, next steps) for whoever works on it next.',
  input: saveContextInput,
  output: saveContextOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => ({
    success: true as const,
    context: await services.handoffs.saveContext(
      args.task_id,
      { progress: args.progress, findings: args.findings, blockers: args.blockers, next_steps: args.next_steps },
      args.agent_id,
    ),
  }),
});
