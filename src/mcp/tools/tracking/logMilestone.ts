import { logMilestoneInput, logMilestoneOutput } from '../../../core/tasks/trackingContracts';
import { defineTool } from '../../toolDefinition';

export const logMilestoneTool = defineTool({
  name: 'log_milestone',
  family: 'tracking',
  title: 'Log milestone',
  description:
    'Log a milestone for real-time UI updates (short message, optional progress). Light and cheap; at most ~5 per task.',
  input: logMilestoneInput,
  output: logMilestoneOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.tracking.logMilestone(args),
});
