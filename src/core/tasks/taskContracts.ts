import { z } from 'zod';
import { assigneeTypes, priorities, taskStatuses, taskTypes } from './taskModel';
import { nextOffsetOutput, pageLimit, taskRef, workflowRef } from '../contracts/common';
import { taskCostOutput } from '../costs/costContracts';
import { idempotencyKeyInput, idempotencyOutputWithKey } from '../contracts/callOptions';

/** task_list, task_get, task_create and task_update (the task-management contract: camelCase fields, numeric ids). */

export const taskListInput = z.strictObject({
  status: z.enum(taskStatuses).optional().describe('Filter by status'),
  assignee: z.string().min(1).max(200).optional().describe('Filter by assignee name'),
  workflowId: workflowRef.optional().describe('Only tasks of this workflow (e.g. "wf-2")'),
  ready: z
    .boolean()
    .optional()
    .describe(
      "true: only open tasks whose dependencies (edges of their workflow's plan graph) are all done — what can start now",
    ),
  limit: pageLimit(20, 'tasks'),
  offset: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('How many matching tasks to skip: pass the previous answer’s nextOffset for the next page'),
});

export const taskGetInput = z.strictObject({ id: taskRef });

/** "a, b,,a" → ["a", "b"]: trimmed, without empties or duplicates. */
export function splitLabels(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((l) => l.trim())
        .filter((l) => l !== ''),
    ),
  ];
}

const maxLabels = 50;
const maxLabelLength = 100;
const maxLabelsText = 2000;

/** Comma-separated labels in, the list out: each label and their number are checked here, once. */
const labelsText = z
  .string()
  .max(maxLabelsText)
  .superRefine((text, ctx) => {
    if (text.length > maxLabelsText) return; // said once, by max()
    const labels = splitLabels(text);
    const long = labels.find((l) => l.length > maxLabelLength);
    if (long)
      ctx.addIssue({
        code: 'custom',
        message: `label "${long.slice(0, 40)}…" is too long (at most ${maxLabelLength} characters)`,
      });
    if (labels.length > maxLabels)
      ctx.addIssue({ code: 'custom', message: `too many labels (${labels.length}; at most ${maxLabels})` });
  })
  .transform(splitLabels)
  .describe('Comma-separated labels, e.g. "auth,backend" ("" clears them)');

export const taskCreateInput = z.strictObject({
  title: z.string().trim().min(1).max(500).describe('Task title'),
  description: z.string().max(20_000).optional().describe('What to do and how to know it is done'),
  priority: z.enum(priorities).default('medium').describe('Priority'),
  type: z.enum(taskTypes).default('task').describe('Kind of task'),
  assignee: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('Who should do it: an agent name (e.g. "coder") or a person'),
  assigneeType: z.enum(assigneeTypes).optional().describe('Whether the assignee is an AI agent or a human'),
  labels: labelsText.optional(),
  ...idempotencyKeyInput,
  workflowId: workflowRef
    .optional()
    .describe(
      'Add the task to this workflow, planned and not started (e.g. "wf-2"): it shows with the workflow\'s tasks and in its report',
    ),
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
    .describe(
      'Cancel the task ("cancelled") or reopen a cancelled or failed one ("open"); in_progress, done and failed come from sessions and complete_task',
    ),
});

/** A row of task_list: the task-management contract's fields plus type and labels, nothing heavy. */
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

export const taskListOutput = z.object({
  tasks: z.array(taskRowOutput),
  total: z.number().describe('Tasks matching the filters'),
  nextOffset: nextOffsetOutput,
});

/** A task as task://{id} shows it: the task-management contract's fields first, the tracking fields after. */
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
  repositoryRoot: z
    .string()
    .nullable()
    .optional()
    .describe(
      "Where complete_task measured filesChanged: the Git repository's top level (a worker's worktree for a task run there); null before completion or outside Git",
    ),
  workspacePath: z
    .string()
    .nullable()
    .optional()
    .describe(
      'The workspace folder inside repositoryRoot that filesChanged paths are relative to ("" = the top level)',
    ),
  machineId: z
    .string()
    .nullable()
    .optional()
    .describe(
      'The machine the task started on, where its snapshot lives (a ledger shared by several machines); null for older tasks',
    ),
  osUser: z.string().nullable().optional().describe('The OS user the task started under on that machine'),
  hold: z
    .object({ by: z.string(), at: z.string() })
    .nullable()
    .optional()
    .describe(
      'A person stopped the task\'s agent and holds it ("stopped by <by>"): no runner launches it until someone resumes it (`agent-ledger task resume`)',
    ),
  waiting: z
    .object({ reason: z.string(), detail: z.string(), blockedBy: z.array(z.string()), since: z.string() })
    .nullable()
    .optional()
    .describe(
      'Why the runner does not start the task now (dependencies, conflict, coolingDown, running elsewhere, clientMissing), as it last said; null when nothing holds it',
    ),
});

/** task_create: the task created (or, for a retry with its idempotency_key, the one the first call created). */
export const taskCreateOutput = taskOutput.extend(idempotencyOutputWithKey);

/** One context an agent saved about a task (save_context; report_completed saves its summary as one). */
const savedContextOutput = z.object({
  agent: z.string().nullable().describe('The agent that saved it'),
  progress: z.string().nullable().describe('What is done'),
  findings: z.string().nullable().describe('What it found out'),
  blockers: z.string().nullable().describe('What stops it'),
  nextSteps: z.string().nullable().describe('What comes next'),
  savedAt: z.string(),
});

/** How many contexts task_get shows, newest first. */
export const SAVED_CONTEXTS_SHOWN = 5;

/** task_get: the task, and what its agents' runs cost (summed from its execution logs). */
export const taskGetOutput = taskOutput.extend({
  cost: taskCostOutput.describe(
    "What agent runs on this task cost: runs, dollars and tokens summed from its execution logs, per agent, and with its sub-tasks' runs",
  ),
  completionReview: z
    .object({
      verdict: z.enum(['approved', 'dismissed']),
      note: z.string().nullable(),
      reviewedBy: z.string(),
      reviewedAt: z.string(),
    })
    .nullable()
    .describe(
      "A person's answer to this very completion's review requests (`agent-ledger task review`, the Board's Approve/Dismiss), the latest; null when nobody reviewed the task since it completed",
    ),
  alsoChangedBy: z
    .array(z.object({ path: z.string(), tasks: z.array(z.string()) }))
    .describe(
      'Files of filesChanged that other tasks working in the same tree at the same time also changed (each with those tasks, e.g. ["task-4"]): Git cannot tell whose edit it was',
    ),
  contexts: z
    .object({
      total: z.number().int().describe('Contexts saved about the task'),
      newest: z.array(savedContextOutput).describe(`The newest ${SAVED_CONTEXTS_SHOWN}, newest first`),
    })
    .describe(
      "What agents saved about the task as they worked (save_context, and report_completed's summary); get_task_context gives the whole history",
    ),
  landing: z
    .object({
      onto: z.string(),
      branch: z.string(),
      method: z.enum(['fast-forward', 'merge', 'rebase', 'already', 'pull-request']),
      by: z.string(),
      at: z.string(),
      commit: z.string().describe('The base branch’s commit after landing (before it, for a pull request)'),
      pullRequest: z.string().nullable(),
    })
    .nullable()
    .optional()
    .describe(
      'How a person landed the task’s branch (`agent-ledger task land`): on which branch, how, by whom and when, or the pull request it opened; null while not landed',
    ),
});

export type TaskListInput = z.infer<typeof taskListInput>;
export type TaskCreateInput = z.infer<typeof taskCreateInput>;
export type TaskUpdateInput = z.infer<typeof taskUpdateInput>;
export type TaskRowView = z.infer<typeof taskRowOutput>;
export type TaskListResult = z.infer<typeof taskListOutput>;
/** A task's JSON (task://{id}, task_get/create/update): the task-management contract's fields typed, the tracking fields besides. */
export type TaskJson = z.infer<typeof taskOutput>;
/** task_get's answer: the task's JSON with its cost. */
export type TaskGetJson = z.infer<typeof taskGetOutput>;
