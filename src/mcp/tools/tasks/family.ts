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
    'Tasks: task_list / task_get / task_create / task_update manage the backlog; worker_command prepares a Git worktree for a task and returns the command that launches an agent in it; memory_preview gives the project decisions (Memory Bank) to follow.',
};
