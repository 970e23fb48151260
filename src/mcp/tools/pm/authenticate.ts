import { authenticateInput, authenticateOutput } from '../../../core/runtime/runtimeContracts';
import { defineTool } from '../../toolDefinition';

export const authenticateTool = defineTool({
  name: 'authenticate',
  title: 'Authenticate agent',
  description:
    "Agent instance API: log in as an agent in a project with its passkey. Returns a session_token for every later call, expires_in (seconds of inactivity), the agent's system_prompt and what to do next. Refused when the agent or passkey is wrong (without saying which) or when this agent already runs in this project.",
  input: authenticateInput,
  output: authenticateOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services }) => ({ success: true as const, ...(await services.runtime.authenticate(args.agent_id, args.passkey, args.project_id)) }),
});
