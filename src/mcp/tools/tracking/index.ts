import type { ToolFamily } from '../../toolDefinition';
import { trackingInfo } from './family';
import { startWorkflowTool } from './startWorkflow';
import { startTaskTool } from './startTask';
import { logDecisionTool } from './logDecision';
import { logIssueTool } from './logIssue';
import { logMilestoneTool } from './logMilestone';
import { completeTaskTool } from './completeTask';

/** Workflow tracking: what an agent did, task by task, with the exact files each task changed. */
export const trackingFamily: ToolFamily = {
  ...trackingInfo,
  tools: [startWorkflowTool, startTaskTool, logDecisionTool, logIssueTool, logMilestoneTool, completeTaskTool],
};
