import { logIssueInput, logIssueOutput } from '../../../core/tasks/trackingContracts';
import { defineTool } from '../../toolDefinition';

export const logIssueTool = defineTool({
  name: 'log_issue',
  family: 'tracking',
  title: 'Log issue',
  description:
    'Log an issue encountered during execution and how it was resolved. Set requires_human_review when a person should check the resolution (the editor notifies them).',
  input: logIssueInput,
  output: logIssueOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.tracking.logIssue(args),
});
