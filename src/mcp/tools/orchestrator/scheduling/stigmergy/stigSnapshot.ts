import { stigSnapshotInput, stigSnapshotResult } from '../../../../../core/scheduling/stigmergy/stigmergyContracts';
import { defineTool } from '../../../../toolDefinition';

export const stigSnapshotTool = defineTool({
  name: 'stig_snapshot',
  family: 'orchestrator',
  title: 'Where agents are working',
  description:
    'The most marked files, folders and globs now (marks faded to this moment): points, node totals, a heatmap with normalised cells, pheromone_bounds and ready-made summary rows (Min / Max / Ceiling).',
  input: stigSnapshotInput,
  output: stigSnapshotResult,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => services.scheduling.stigmergy.snapshot(args.limit),
});
