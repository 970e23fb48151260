/**
 * v20: a task queued for an agent runs with a client (and model) of its own when the person asked
 * for one (`agent-ledger task create "…" --agent coder --client codex`), else its agent's; and a run
 * records the folder it worked in (the project's folder inside the task's worktree), the one folder
 * the launch prompt, get_my_task and the run's record all name.
 */
export const v20QueuedRuns: readonly string[] = [
  'ALTER TABLE tasks ADD COLUMN run_client TEXT',
  'ALTER TABLE tasks ADD COLUMN run_model TEXT',
  'ALTER TABLE execution_logs ADD COLUMN working_directory TEXT',
];
