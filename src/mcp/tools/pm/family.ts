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
    'Agent PM: a launched agent calls authenticate(agent_id, passkey, project_id), then get_my_task(session_token), works in the task’s working_directory, saves progress with save_context, hands work over with create_handoff, and ends with report_completed(session_token, result). A runner polls health_check, list_active_projects_with_agents and should_start(agent_id, project_id). Ids are strings like "prj-1", "task-5", "exec-3", "handoff-2"; an agent’s id is its name.',
};
