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
    'Tracking: for each piece of work call start_workflow once, then start_task (it snapshots the working state), log_decision / log_issue / log_milestone sparingly, and complete_task at the end: it computes exactly which files the task changed from Git.',
};
