import { z } from 'zod';
import { taskRef } from '../../contracts/common';
import { taskStatuses } from '../../tasks/taskModel';

/**
 * Contracts of the agent-PM tools about projects, agents and tasks (`list_projects`,
 * `get_project`, `list_active_projects_with_agents`, `get_agent_profile`, `list_agents`,
 * `list_tasks`, `get_task`, `update_task_status`, `assign_task`). Field names are the
 * contract's (snake_case); every answer carries `success: true` as the contract's do, and a
 * refusal is an error result with a code instead of `success: false`.
 */

export const projectRef = z
  .union([z.string().trim().min(1).max(200), z.number().int().positive()])
  .describe('Project ID, e.g. "prj-1" (its name works too)');
export const agentIdInput = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe('Agent ID: the agent definition’s name, e.g. "coder"');
export const success = z.literal(true).describe('Always true; a refusal is an error result with a code');

export const projectStatuses = ['active', 'archived'] as const;

export const projectOutput = z.strictObject({
  project_id: z.string().describe('Project ID, e.g. "prj-1"'),
  name: z.string().describe('Project name, unique in this ledger'),
  description: z.string().nullable().describe('What the project is'),
  working_directory: z.string().describe('Absolute folder agents of this project work in'),
  status: z.enum(projectStatuses).describe('active projects are served to the runner'),
  agents: z.array(z.string()).describe('IDs of the agents assigned to the project'),
  created_at: z.string().describe('ISO time'),
  updated_at: z.string().describe('ISO time'),
});

export const listProjectsInput = z.strictObject({});
export const listProjectsOutput = z.strictObject({
  success,
  projects: z.array(projectOutput).describe('Every project, oldest first'),
});

export const getProjectInput = z.strictObject({ project_id: projectRef });
export const getProjectOutput = z.strictObject({
  success,
  project: projectOutput.extend({
    task_counts: z.record(z.string(), z.number().int()).describe('Tasks of the project by status'),
  }),
});

export const listActiveProjectsInput = z.strictObject({});
export const listActiveProjectsOutput = z.strictObject({
  success,
  projects: z
    .array(
      z.strictObject({
        project_id: z.string().describe('Project ID'),
        project_name: z.string().describe('Project name'),
        working_directory: z.string().describe('Absolute folder the agents of this project start in'),
        agents: z.array(z.string()).describe('IDs of the agents assigned to it that have a definition'),
      }),
    )
    .describe('Active projects with their agents'),
});

export const aiTypes = ['claude', 'codex', 'gemini'] as const;

export const agentProfileOutput = z.strictObject({
  agent_id: z.string().describe('Agent ID (the definition’s name)'),
  name: z.string().describe('Agent name'),
  description: z.string().nullable().describe('Role of the agent'),
  ai_type: z.enum(aiTypes).describe('Which agent CLI runs it'),
  model: z.string().nullable().describe('Model the client is told to use, if any'),
  projects: z.array(z.string()).describe('IDs of the projects the agent is assigned to'),
  has_passkey: z.boolean().describe('Whether a passkey is set, so it can authenticate'),
});

export const getAgentProfileInput = z.strictObject({ agent_id: agentIdInput });
export const getAgentProfileOutput = z.strictObject({
  success,
  agent: agentProfileOutput.extend({
    system_prompt: z.string().describe('The role prompt authenticate hands the agent'),
  }),
});

export const listAgentsInput = z.strictObject({});
export const listAgentsOutput = z.strictObject({
  success,
  agents: z.array(agentProfileOutput).describe('Every agent definition'),
});

export const pmTaskOutput = z.strictObject({
  task_id: z.string().describe('Task ID, e.g. "task-5" (the same task task_get shows as 5)'),
  project_id: z.string().nullable().describe('Project the task belongs to, null when none'),
  parent_task_id: z.string().nullable().describe('Parent task, null for a top-level task'),
  title: z.string(),
  description: z.string().nullable(),
  status: z.enum(taskStatuses),
  priority: z.string(),
  assignee_id: z.string().nullable().describe('Agent the task is assigned to'),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
});

const statusInput = z.enum(taskStatuses);

export const listTasksInput = z.strictObject({
  project_id: projectRef,
  status: statusInput.optional().describe('Only tasks in this status'),
  assignee_id: agentIdInput.optional().describe('Only tasks assigned to this agent'),
});
export const listTasksOutput = z.strictObject({
  success,
  tasks: z.array(pmTaskOutput).describe('Tasks of the project, oldest first'),
});

export const getTaskInput = z.strictObject({ task_id: taskRef });
export const getTaskOutput = z.strictObject({
  success,
  task: pmTaskOutput.extend({
    subtasks: z
      .array(z.strictObject({ task_id: z.string(), title: z.string(), status: z.enum(taskStatuses) }))
      .describe('Direct sub-tasks'),
  }),
});

export const updateTaskStatusInput = z.strictObject({
  task_id: taskRef,
  status: statusInput.describe('New status; "done" is refused while a sub-task is still open or in progress'),
});
export const updateTaskStatusOutput = z.strictObject({
  success,
  task_id: z.string(),
  previous_status: z.enum(taskStatuses),
  status: z.enum(taskStatuses),
});

export const assignTaskInput = z.strictObject({
  task_id: taskRef,
  assignee_id: agentIdInput.describe('Agent to assign the task to'),
  project_id: projectRef
    .optional()
    .describe(
      'Project the task runs in (the agent must be assigned to it). Absent: the task’s own, else the agent’s only project',
    ),
});
export const assignTaskOutput = z.strictObject({
  success,
  task_id: z.string(),
  assignee_id: z.string(),
  project_id: z
    .string()
    .nullable()
    .describe(
      'Project the task now belongs to; null when none could be chosen (the runner only starts tasks of a project)',
    ),
});

export type ProjectOutput = z.infer<typeof projectOutput>;
export type AgentProfile = z.infer<typeof agentProfileOutput>;
export type PmTask = z.infer<typeof pmTaskOutput>;
