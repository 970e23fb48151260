import { logoutInput, logoutOutput } from '../../../core/runtime/runtimeContracts';
import { defineTool } from '../../toolDefinition';

export const logoutTool = defineTool({
  name: 'logout',
  title: 'Log out',
  description:
    'Agent instance API: end the session (a run it opened without report_completed is recorded as an error).',
  input: logoutInput,
  output: logoutOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => (await services.runtime.logout(args.session_token), { success: true as const }),
});
