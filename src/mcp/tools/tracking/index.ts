import type { ToolFamily } from '../../toolDefinition';
import { startWorkflowTool } from './startWorkflow';
import { startTaskTool } from './startTask';
import { logDecisionTool } from './logDecision';
import { logIssueTool } from './logIssue';
import { logMilestoneTool } from './logMilestone';
import { completeTaskTool } from './completeTask';

/** Workflow tracking: what an agent did, task by task, with the exact files each task changed. */
export const trackingFamily: ToolFamily = {
  name: 'tracking',
  description: 'Workflow tracking: workflows, tasks with Git snapshots, decisions, issues, milestones, exact files changed',
  enabledByDefault: true,
  instructions:
    'Tracking: for each piece of work call start_workflow once, then start_task (it snapshots the working state), log_decision / log_issue / log_milestone sparingly, and complete_task at the end: it computes exactly which files the task changed from Git.',
  tools: [startWorkflowTool, startTaskTool, logDecisionTool, logIssueTool, logMilestoneTool, completeTaskTool],
};
