import type { FamilyInfo } from '../../toolDefinition';

/**
 * The agent PM: a runner on the machine asks which (agent, project) should start, launches the
 * agent's CLI, and the agent logs in with its passkey, takes its task, leaves context and
 * handoffs, and reports; every run leaves an execution log.
 * What the server and the extension know of the family without loading its tools (families.ts).
 */
export const pmInfo: FamilyInfo = {
  name: 'pm',
  description:
    'Agent PM: projects, agent login, the runner’s should_start, get_my_task, context, handoffs, execution logs',
  enabledByDefault: false,
  instructions:
    'Agent PM (an agent the runner launched): authenticate(agent_id, passkey, project_id) first, then get_my_task(session_token); work in its working_directory, save_context to keep progress, create_handoff to pass work on (get_pending_handoffs / accept_handoff to take one), report_completed(session_token, result) at the end. Ids are strings like "prj-1", "task-5"; an agent’s id is its name.',
};
