import type { ToolFamily } from '../../toolDefinition';
import { tasksInfo } from './family';
import { taskListTool } from './taskList';
import { taskGetTool } from './taskGet';
import { taskCreateTool } from './taskCreate';
import { taskUpdateTool } from './taskUpdate';
import { workerCommandTool } from './workerCommand';
import { worktreeCleanupTool } from './worktreeCleanup';
import { sessionStartTool } from './sessionStart';
import { sessionEndTool } from './sessionEnd';
import { sessionListTool } from './sessionList';
import { agentListTool } from './agentList';
import { agentGetTool } from './agentGet';
import { memoryListTool } from './memoryList';
import { memoryAddTool } from './memoryAdd';
import { memoryPreviewTool } from './memoryPreview';

/** Task management: the backlog, agents, workers in Git worktrees, their sessions and the Memory Bank. */
export const tasksFamily: ToolFamily = {
  ...tasksInfo,
  tools: [
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
  ],
};
