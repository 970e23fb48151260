/**
 * The prompt an agent instance starts with: who it is, which project and task, the folder it works
 * in (the one get_my_task names: workFolder.ts), and the three calls of its life (authenticate,
 * get_my_task, report_completed). The ids sit on lines of their own
 * (`agent_id: …`) so any client, or a script, can read them back. No secret is ever in it: the
 * instance's MCP server logs in with the launch ticket it took from the run's ticket file.
 */
import type { LaunchTarget } from './runnerPort';

/** One line: a name from the ledger must not add lines (or steps) to the instructions. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ').trim();
}

export function launchPrompt(
  target: Pick<LaunchTarget, 'agentId' | 'agentName' | 'projectId' | 'projectName' | 'taskId' | 'cwd' | 'branch'>,
): string {
  const where = target.branch
    ? `the task's own Git worktree, on branch ${oneLine(target.branch)}`
    : "the project's folder";
  return [
    `You are the agent "${oneLine(target.agentName)}", started by the Agent Ledger runner to work on the project "${oneLine(target.projectName)}".`,
    '',
    `agent_id: ${oneLine(target.agentId)}`,
    `project_id: ${oneLine(target.projectId)}`,
    ...(target.taskId ? [`task_id: ${oneLine(target.taskId)}`] : []),
    `working_directory: ${oneLine(target.cwd)}`,
    '',
    `Your current folder is the working directory: ${where}. Edit, test and commit there, never in another checkout; do not push or merge.`,
    '',
    'Use the tools of the MCP server "agent-ledger":',
    '1. Call authenticate with the agent_id and project_id above and no passkey: the server was started for you and logs you in itself.',
    '2. Call get_my_task and follow its instruction; its working_directory is the folder above.',
    '3. Call save_context with what you learned as you go. If another agent must continue, call create_handoff.',
    '4. Call report_completed with result success, failed or blocked, a summary and next steps; then stop.',
  ].join('\n');
}
