import type { ToolFamily } from '../../toolDefinition';
import { pmInfo } from './family';
import { taskStartPrompt } from '../../prompts/taskStartPrompt';
import { handoffTemplatePrompt } from '../../prompts/handoffTemplatePrompt';
import { contextSummaryPrompt } from '../../prompts/contextSummaryPrompt';
import { healthCheckTool } from './healthCheck';
import { listActiveProjectsWithAgentsTool } from './listActiveProjectsWithAgents';
import { shouldStartTool } from './shouldStart';
import { authenticateTool } from './authenticate';
import { logoutTool } from './logout';
import { getMyTaskTool } from './getMyTask';
import { reportCompletedTool } from './reportCompleted';
import { getPendingTasksTool } from './getPendingTasks';
import { reportExecutionStartTool } from './reportExecutionStart';
import { reportExecutionCompleteTool } from './reportExecutionComplete';
import { listExecutionLogsTool } from './listExecutionLogs';
import { getExecutionLogTool } from './getExecutionLog';
import { getAgentProfileTool } from './getAgentProfile';
import { listAgentsTool } from './listAgents';
import { listProjectsTool } from './listProjects';
import { getProjectTool } from './getProject';
import { listTasksTool } from './listTasks';
import { getTaskTool } from './getTask';
import { updateTaskStatusTool } from './updateTaskStatus';
import { assignTaskTool } from './assignTask';
import { saveContextTool } from './saveContext';
import { getTaskContextTool } from './getTaskContext';
import { createHandoffTool } from './createHandoff';
import { acceptHandoffTool } from './acceptHandoff';
import { getPendingHandoffsTool } from './getPendingHandoffs';

/**
 * The agent PM: a runner on the machine asks which (agent, project) should start, launches the
 * agent's CLI, and the agent logs in with its passkey, takes its task, leaves context and
 * handoffs, and reports; every run leaves an execution log.
 */
export const pmFamily: ToolFamily = {
  ...pmInfo,
  tools: [
    healthCheckTool,
    listActiveProjectsWithAgentsTool,
    shouldStartTool,
    authenticateTool,
    logoutTool,
    getMyTaskTool,
    reportCompletedTool,
    getPendingTasksTool,
    reportExecutionStartTool,
    reportExecutionCompleteTool,
    listExecutionLogsTool,
    getExecutionLogTool,
    getAgentProfileTool,
    listAgentsTool,
    listProjectsTool,
    getProjectTool,
    listTasksTool,
    getTaskTool,
    updateTaskStatusTool,
    assignTaskTool,
    saveContextTool,
    getTaskContextTool,
    createHandoffTool,
    acceptHandoffTool,
    getPendingHandoffsTool,
  ],
  prompts: [taskStartPrompt, handoffTemplatePrompt, contextSummaryPrompt],
};
