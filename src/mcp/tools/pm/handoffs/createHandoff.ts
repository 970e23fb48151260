import { createHandoffInput, createHandoffOutput } from '../../../../core/runtime/pm/handoffContracts';
import { defineTool } from '../../../toolDefinition';

export const createHandoffTool = defineTool({
  name: 'create_handoff',
  family: 'pm',
  title: 'Create handoff',
  description:
    'Hand a task over from one agent to another (or to whoever takes it next) with a summary, context and recommendations.',
  input: createHandoffInput,
  output: createHandoffOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => ({
    success: true as const,
    handoff: await services.handoffs.create({
      taskRef: args.task_id,
      from: args.from_agent_id,
      to: args.to_agent_id,
      summary: args.summary,
      context: args.context,
      recommendations: args.recommendations,
    }),
  }),
});
