import { z } from 'zod';
import { assigneeTypes, priorities, taskStatuses, taskTypes } from './taskModel';
import { taskRef, workflowRef } from '../contracts/refs';

/** Inputs of seed 002's task tools; the MCP tools and the CLI validate with these same schemas. */

export const taskListInput = z.strictObject({
  status: z.enum(taskStatuses).optional().describe('Filter by status'),
  assignee: z.string().min(1).max(200).optional().describe('Filter by assignee name'),
  workflowId: workflowRef.optional().describe('Only tasks of this workflow (e.g. "wf-2")'),
  limit: z.number().int().min(1).max(500).default(20).describe('Maximum number of tasks to return'),
  offset: z.number().int().min(0).default(0).describe('How many matching tasks to skip: pass the previous answer’s nextOffset for the next page'),
});

export const taskGetInput = z.strictObject({ id: taskRef });

const labelsText = z.string().max(2000).describe('Comma-separated labels, e.g. "auth,backend" ("" clears them)');

export const taskCreateInput = z.strictObject({
  title: z.string().trim().min(1).max(500).describe('Task title'),
  description: z.string().max(20_000).optional().describe('What to do and how to know it is done'),
  priority: z.enum(priorities).default('medium').describe('Priority'),
  type: z.enum(taskTypes).default('task').describe('Kind of task'),
  assignee: z.string().trim().min(1).max(200).optional().describe('Who should do it: an agent name (e.g. "coder") or a person'),
  assigneeType: z.enum(assigneeTypes).optional().describe('Whether the assignee is an AI agent or a human'),
  labels: labelsText.optional(),
});

export const taskUpdateInput = z.strictObject({
  id: taskRef,
  title: z.string().trim().min(1).max(500).optional().describe('New title'),
  description: z.string().max(20_000).optional().describe('New description ("" clears it)'),
  priority: z.enum(priorities).optional().describe('New priority'),
  type: z.enum(taskTypes).optional().describe('New kind of task'),
  assignee: z.string().trim().max(200).optional().describe('New assignee ("" unassigns)'),
  assigneeType: z.enum(assigneeTypes).optional().describe('Whether the assignee is an AI agent or a human'),
  labels: labelsText.optional(),
  status: z
    .enum(['open', 'cancelled'])
    .optional()
    .describe('Cancel the task ("cancelled") or reopen a cancelled or failed one ("open"); in_progress, done and failed come from sessions and complete_task'),
});

export type TaskListInput = z.infer<typeof taskListInput>;
export type TaskCreateInput = z.infer<typeof taskCreateInput>;
export type TaskUpdateInput = z.infer<typeof taskUpdateInput>;
