import { getPendingHandoffsInput, getPendingHandoffsOutput } from '../../../../core/runtime/pm/handoffContracts';
import { defineTool } from '../../../toolDefinition';

export const getPendingHandoffsTool = defineTool({
  name: 'get_pending_handoffs',
  family: 'pm',
  waits: true,
  title: 'Get pending handoffs',
  description:
    'Handoffs not yet accepted, for one agent (addressed to it or to nobody) or all. With wait_ms it waits for one and returns the moment it is created.',
  input: getPendingHandoffsInput,
  output: getPendingHandoffsOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => ({
    success: true as const,
    handoffs: await services.handoffs.pending(args.agent_id, args.wait_ms),
  }),
});
