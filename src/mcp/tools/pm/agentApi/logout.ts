import { logoutInput, logoutOutput } from '../../../../core/runtime/pm/runtimeContracts';
import { defineTool } from '../../../toolDefinition';
import { sessionTokenOf } from '../../../serverLogin';

export const logoutTool = defineTool({
  name: 'logout',
  family: 'pm',
  title: 'Log out',
  description:
    'Agent instance API: end the session (a run it opened without report_completed is recorded as an error).',
  input: logoutInput,
  output: logoutOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services, login }) => (
    await services.runtime.logout(sessionTokenOf(args.session_token, login)),
    { success: true as const }
  ),
});
