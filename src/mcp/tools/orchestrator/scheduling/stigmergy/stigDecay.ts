import { stigDecayInput, stigDecayResult } from '../../../../../core/scheduling/stigmergy/stigmergyContracts';
import { defineTool } from '../../../../toolDefinition';

export const stigDecayTool = defineTool({
  name: 'stig_decay',
  family: 'orchestrator',
  title: 'Fade marks',
  description:
    'Fade every mark now by a half-life: each is halved for every half_life_ms since its last change, and marks that become negligible are removed. Returns every mark that changed.',
  input: stigDecayInput,
  output: stigDecayResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => ({ changes: await services.scheduling.stigmergy.decay(args.half_life_ms) }),
});
