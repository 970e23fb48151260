import { validationError } from '../../../../core/errors';
import { authenticateInput, authenticateOutput } from '../../../../core/runtime/pm/runtimeContracts';
import { heldTokenPlaceholder } from '../../../serverLogin';
import { defineTool } from '../../../toolDefinition';

export const authenticateTool = defineTool({
  name: 'authenticate',
  family: 'pm',
  title: 'Authenticate agent',
  description:
    "Agent instance API: log in as an agent in a project with its passkey. Returns a session_token for every later call, expires_in (seconds of inactivity), the agent's system_prompt and what to do next. An agent the runner launched leaves the passkey out: the server logs it in with the ticket it was given and keeps the session, so later calls need no session_token. Refused when the agent or passkey is wrong (without saying which) or when this agent already runs in this project.",
  input: authenticateInput,
  output: authenticateOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { services, login }) => {
    if (args.passkey !== undefined) {
      const session = await services.runtime.authenticate(args.agent_id, args.passkey, args.project_id);
      login?.loggedIn(args.agent_id);
      return { success: true as const, ...session };
    }
    const ticket = login?.takeTicket(args.agent_id);
    if (ticket === undefined)
      throw validationError('passkey is required: only an agent launched by the runner logs in without one', {
        field: 'passkey',
      });
    const session = await services.runtime.authenticateWithTicket(
      args.agent_id,
      ticket,
      args.project_id,
      login?.sessionTokenToOpen(),
    );
    login?.hold(session.session_token, args.agent_id);
    return {
      success: true as const,
      ...session,
      session_token: heldTokenPlaceholder,
      instruction:
        'Call get_my_task to get your task; this server holds your session, so leave session_token out of every call.',
    };
  },
});
