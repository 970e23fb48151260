import {
  cnpWatcherTelemetryInput,
  cnpWatcherTelemetryResult,
} from '../../../../../core/scheduling/contractNet/contractNetContracts';
import { defineTool } from '../../../../toolDefinition';

export const cnpWatcherTelemetryTool = defineTool({
  name: 'cnp_watcher_telemetry',
  family: 'orchestrator',
  title: 'Contract-net watcher counters',
  description:
    'Counters of the watcher that keeps open calls in step with the pressure field (received, coalesced, skipped, applied refreshes, flushes), the last emission and its bounds. Each emission is also an event (contract_net / cnp_watcher_telemetry).',
  input: cnpWatcherTelemetryInput,
  output: cnpWatcherTelemetryResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (_args, { services }) => services.scheduling.contractNet.telemetry(),
});
