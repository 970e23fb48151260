import { z } from 'zod';
import { taskRef } from '../../contracts/common';
import { taskCreateInput } from '../../tasks/taskContracts';
import { agentIdInput, projectRef } from './projectContracts';

/**
 * Queueing a task for an agent: `agent-ledger task create "…" --agent coder` (a new task) or
 * `agent-ledger task update 3 --agent coder` (an existing one). One write puts the task in the
 * agent's project, assigned to it and in progress, which is what the runner launches.
 */

/** The clients a queued task may ask for instead of its agent's (the runner's built-in launch plans). */
export const runClients = ['claude', 'codex', 'gemini'] as const;
export type RunClient = (typeof runClients)[number];

const queueFields = {
  agent: agentIdInput.describe('The agent that runs the task (its definition’s name, e.g. "coder")'),
  project: projectRef
    .optional()
    .describe(
      'The project (id or name) to run it in; default: the agent’s only project, or the workspace’s own when the agent is on none',
    ),
  client: z
    .enum(runClients)
    .optional()
    .describe('Run it with this client instead of the agent’s own (then with that client’s default model)'),
  model: z.string().trim().min(1).max(200).optional().describe('The model to run it with'),
};

export const queueNewTaskInput = z.strictObject({
  title: taskCreateInput.shape.title,
  description: taskCreateInput.shape.description,
  priority: taskCreateInput.shape.priority,
  type: taskCreateInput.shape.type,
  labels: taskCreateInput.shape.labels,
  ...queueFields,
});

export const queueExistingTaskInput = z.strictObject({ task_id: taskRef, ...queueFields });

export const queuedTaskOutput = z.strictObject({
  task_id: z.string(),
  title: z.string(),
  status: z.literal('in_progress'),
  agent_id: z.string(),
  project_id: z.string(),
  project_name: z.string(),
  working_directory: z.string().describe('The project’s folder (the run works in this folder of the task’s worktree)'),
  client: z.string().describe('What the runner will start: claude, codex, gemini, or the agent’s launch command'),
  model: z.string().nullable().describe('The model it runs with, null for the client’s default'),
  project_created: z.boolean().describe('True when the workspace’s project was created for this task'),
  agent_added: z.boolean().describe('True when the agent was added to the project for this task'),
});

export type QueueNewTaskInput = z.infer<typeof queueNewTaskInput>;
export type QueueExistingTaskInput = z.infer<typeof queueExistingTaskInput>;
export type QueuedTask = z.infer<typeof queuedTaskOutput>;
