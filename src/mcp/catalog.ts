import type { ToolDefinition } from './toolDefinition';
import type { FixedResourceDefinition, ResourceTemplateDefinition } from './resources/resourceDefinition';
import { mcpInfoTool } from './tools/meta/mcpInfo';
import { mcpCapabilitiesTool } from './tools/meta/mcpCapabilities';
import { startWorkflowTool } from './tools/tracking/startWorkflow';
import { startTaskTool } from './tools/tracking/startTask';
import { logDecisionTool } from './tools/tracking/logDecision';
import { logIssueTool } from './tools/tracking/logIssue';
import { logMilestoneTool } from './tools/tracking/logMilestone';
import { completeTaskTool } from './tools/tracking/completeTask';
import { pipelineInitTool } from './tools/pipeline/pipelineInit';
import { pipelineInitWithContextTool } from './tools/pipeline/pipelineInitWithContext';
import { pipelineNextActionTool } from './tools/pipeline/pipelineNextAction';
import { pipelineReportResultTool } from './tools/pipeline/pipelineReportResult';
import { taskListTool } from './tools/tasks/taskList';
import { taskGetTool } from './tools/tasks/taskGet';
import { taskCreateTool } from './tools/tasks/taskCreate';
import { taskUpdateTool } from './tools/tasks/taskUpdate';
import { workerCommandTool } from './tools/tasks/workerCommand';
import { worktreeCleanupTool } from './tools/tasks/worktreeCleanup';
import { sessionStartTool } from './tools/tasks/sessionStart';
import { sessionEndTool } from './tools/tasks/sessionEnd';
import { sessionListTool } from './tools/tasks/sessionList';
import { agentListTool } from './tools/tasks/agentList';
import { agentGetTool } from './tools/tasks/agentGet';
import { memoryListTool } from './tools/tasks/memoryList';
import { memoryAddTool } from './tools/tasks/memoryAdd';
import { memoryPreviewTool } from './tools/tasks/memoryPreview';
import { taskResource } from './resources/taskResource';
import { agentResource } from './resources/agentResource';
import { memoryResource } from './resources/memoryResource';
import { workflowResource } from './resources/workflowResource';

/**
 * Every tool and resource the server can expose, grouped by family. A new tool is one file
 * under tools/<family>/ plus one line here.
 */
export function allTools(): ToolDefinition[] {
  return [
    // introspection (always on)
    mcpInfoTool,
    mcpCapabilitiesTool,
    // tracking (seed 000)
    startWorkflowTool,
    startTaskTool,
    logDecisionTool,
    logIssueTool,
    logMilestoneTool,
    completeTaskTool,
    // tasks (seed 002)
    taskListTool,
    taskGetTool,
    taskCreateTool,
    taskUpdateTool,
    workerCommandTool,
    worktreeCleanupTool,
    sessionStartTool,
    sessionEndTool,
    sessionListTool,
    agentListTool,
    agentGetTool,
    memoryListTool,
    memoryAddTool,
    memoryPreviewTool,
    // pipeline (seed 003)
    pipelineInitTool,
    pipelineInitWithContextTool,
    pipelineNextActionTool,
    pipelineReportResultTool,
  ];
}

export function allResourceTemplates(): ResourceTemplateDefinition[] {
  return [workflowResource, taskResource, agentResource];
}

/** Resources with one fixed URI. */
export function allFixedResources(): FixedResourceDefinition[] {
  return [memoryResource];
}
