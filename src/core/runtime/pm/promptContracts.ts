import { z } from 'zod';

/** Arguments of the agent-PM prompts (MCP prompt arguments are strings). */
const taskId = z.string().trim().min(1).max(100).describe('Task ID, e.g. "task-5" or 5');
const agentId = z.string().trim().min(1).max(100);

export const taskStartPromptArgs = z.strictObject({
  task_id: taskId,
  agent_id: agentId.describe('Agent starting the task'),
});
export const handoffTemplatePromptArgs = z.strictObject({
  task_id: taskId,
  from_agent_id: agentId.describe('Agent handing the task over'),
});
export const contextSummaryPromptArgs = z.strictObject({ task_id: taskId });
