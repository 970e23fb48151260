import { z } from 'zod';
import { agentClients } from '../../../core/agents/agentModel';
import { memoryStatuses } from '../../../core/memory/memoryModel';
import { assigneeTypes, priorities, taskStatuses, taskTypes } from '../../../core/tasks/taskModel';

/** Output schemas shared by the task-management tools (clients validate results against them). */

export const taskRowOutput = z.object({
  id: z.number(),
  title: z.string(),
  status: z.enum(taskStatuses),
  priority: z.enum(priorities),
  type: z.enum(taskTypes),
  labels: z.array(z.string()),
  assignee: z.string().nullable(),
  assigneeType: z.enum(assigneeTypes).nullable(),
});

/** A task as task://{id} shows it: seed 002's fields first, the tracking fields after. */
export const taskOutput = z.looseObject({
  id: z.number(),
  title: z.string(),
  description: z.string().nullable(),
  status: z.enum(taskStatuses),
  priority: z.enum(priorities),
  type: z.enum(taskTypes),
  labels: z.array(z.string()),
  assigneeType: z.enum(assigneeTypes).nullable(),
  assigneeName: z.string().nullable(),
  selectedSessionId: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  repositoryRoot: z.string().nullable().optional().describe("Where complete_task measured filesChanged: the Git repository's top level (a worker's worktree for a task run there); null before completion or outside Git"),
  workspacePath: z.string().nullable().optional().describe('The workspace folder inside repositoryRoot that filesChanged paths are relative to ("" = the top level)'),
});

export const scopeOutput = z.object({ read: z.array(z.string()), write: z.array(z.string()), exclude: z.array(z.string()) });

export const agentSummaryOutput = z.object({
  name: z.string(),
  description: z.string().nullable(),
  client: z.enum(agentClients),
  model: z.string().nullable(),
  scope: scopeOutput,
  file: z.string().describe('Workspace-relative file of the definition'),
});

export const problemOutput = z.object({ file: z.string(), message: z.string() });

export const sessionOutput = z.looseObject({
  id: z.number(),
  taskId: z.number(),
  agent: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  worktree: z.string().nullable(),
  branch: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
});

export const memoryOutput = z.object({
  id: z.string(),
  category: z.string(),
  title: z.string(),
  summary: z.string().nullable(),
  status: z.enum(memoryStatuses),
  file: z.string().describe('Workspace-relative path of the entry'),
});
