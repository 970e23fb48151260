import type { ToolFamily } from '../../toolDefinition';
import { pmInfo } from './family';
import { taskStartPrompt } from '../../prompts/taskStartPrompt';
import { handoffTemplatePrompt } from '../../prompts/handoffTemplatePrompt';
import { contextSummaryPrompt } from '../../prompts/contextSummaryPrompt';
import { healthCheckTool } from './runner/healthCheck';
import { listActiveProjectsWithAgentsTool } from './runner/listActiveProjectsWithAgents';
import { shouldStartTool } from './runner/shouldStart';
import { authenticateTool } from './agentApi/authenticate';
import { logoutTool } from './agentApi/logout';
import { getMyTaskTool } from './agentApi/getMyTask';
import { reportCompletedTool } from './agentApi/reportCompleted';
import { getPendingTasksTool } from './agentApi/getPendingTasks';
import { reportExecutionStartTool } from './agentApi/reportExecutionStart';
import { reportExecutionCompleteTool } from './agentApi/reportExecutionComplete';
import { listExecutionLogsTool } from './executions/listExecutionLogs';
import { getExecutionLogTool } from './executions/getExecutionLog';
import { getAgentProfileTool } from './projects/getAgentProfile';
import { listAgentsTool } from './projects/listAgents';
import { listProjectsTool } from './projects/listProjects';
import { getProjectTool } from './projects/getProject';
import { listTasksTool } from './projects/listTasks';
import { getTaskTool } from './projects/getTask';
import { updateTaskStatusTool } from './projects/updateTaskStatus';
import { assignTaskTool } from './projects/assignTask';
import { saveContextTool } from './handoffs/saveContext';
import { getTaskContextTool } from './handoffs/getTaskContext';
import { createHandoffTool } from './handoffs/createHandoff';
import { acceptHandoffTool } from './handoffs/acceptHandoff';
import { getPendingHandoffsTool } from './handoffs/getPendingHandoffs';

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
