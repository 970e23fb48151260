import { cnpBidInput, cnpBidResult } from '../../../../../core/scheduling/contractNet/contractNetContracts';
import { defineTool } from '../../../../toolDefinition';

export const cnpBidTool = defineTool({
  name: 'cnp_bid',
  family: 'orchestrator',
  title: 'Bid on a task',
  description:
    'Bid on an open contract-net call as an agent (its definition name); a new bid by the same agent replaces its earlier one, automatic or manual.',
  input: cnpBidInput,
  output: cnpBidResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => services.scheduling.contractNet.bid(args),
});
