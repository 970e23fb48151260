import type { FamilyInfo } from '../../toolDefinition';

/**
 * Task management: the backlog, agents, workers in Git worktrees, their sessions and the Memory Bank.
 * What the server and the extension know of the family without loading its tools (families.ts).
 */
export const tasksInfo: FamilyInfo = {
  name: 'tasks',
  description: 'Task management: tasks, agents, workers in Git worktrees, sessions, Memory Bank',
  enabledByDefault: true,
  instructions:
    'Tasks (the backlog): task_list (ready: true = what can start now) and task_get to find work, task_create / task_update to change it; memory_preview first for the project decisions to follow; worker_command prepares a Git worktree for a task and the command that launches an agent in it.',
};
