import { logDecisionInput, logDecisionOutput } from '../../../core/tasks/trackingContracts';
import { defineTool } from '../../toolDefinition';

export const logDecisionTool = defineTool({
  name: 'log_decision',
  family: 'tracking',
  title: 'Log decision',
  description:
    'Log an important architectural decision (library choice, architecture, trade-off, workaround). Not for trivial choices. 0-3 per task.',
  input: logDecisionInput,
  output: logDecisionOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.tracking.logDecision(args),
});
