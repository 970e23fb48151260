import type { FamilyInfo } from '../../toolDefinition';

/**
 * Workflow tracking: what an agent did, task by task, with the exact files each task changed.
 * What the server and the extension know of the family without loading its tools (families.ts).
 */
export const trackingInfo: FamilyInfo = {
  name: 'tracking',
  description:
    'Workflow tracking: workflows, tasks with Git snapshots, decisions, issues, milestones, exact files changed',
  enabledByDefault: true,
  instructions:
    'Tracking (record your work): start_workflow once per piece of work, start_task before you edit (it snapshots the working tree), log_decision / log_issue / log_milestone when something is worth keeping, complete_task when done (it computes from Git exactly which files the task changed).',
};
