import {
  cnpRefreshBoundsInput,
  cnpRefreshBoundsResult,
} from '../../../../../core/scheduling/contractNet/contractNetContracts';
import { defineTool } from '../../../../toolDefinition';

export const cnpRefreshBoundsTool = defineTool({
  name: 'cnp_refresh_bounds',
  family: 'orchestrator',
  title: 'Refresh a call’s pressure',
  description:
    'Give an open call new pressure bounds (default: the pressure on its areas now) and reissue its automatic bids with them (reason "auto_refresh"); manual bids are kept.',
  input: cnpRefreshBoundsInput,
  output: cnpRefreshBoundsResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => services.scheduling.contractNet.refreshBounds(args),
});
