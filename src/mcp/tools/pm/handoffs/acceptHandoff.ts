import { acceptHandoffInput, acceptHandoffOutput } from '../../../../core/runtime/pm/handoffContracts';
import { defineTool } from '../../../toolDefinition';

export const acceptHandoffTool = defineTool({
  name: 'accept_handoff',
  family: 'pm',
  title: 'Accept handoff',
  description: 'Accept a pending handoff as its recipient (or as any agent when it names none).',
  input: acceptHandoffInput,
  output: acceptHandoffOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => ({
    success: true as const,
    handoff: await services.handoffs.accept(args.handoff_id, args.agent_id),
  }),
});
