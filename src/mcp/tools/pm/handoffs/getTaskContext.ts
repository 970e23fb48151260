import { getTaskContextInput, getTaskContextOutput } from '../../../../core/runtime/pm/handoffContracts';
import { defineTool } from '../../../toolDefinition';

export const getTaskContextTool = defineTool({
  name: 'get_task_context',
  family: 'pm',
  title: 'Get task context',
  description: 'The latest saved context of a task, and with include_history every earlier one.',
  input: getTaskContextInput,
  output: getTaskContextOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => ({
    success: true as const,
    ...(await services.handoffs.taskContext(args.task_id, args.include_history)),
  }),
});
