import { z } from 'zod';
import { taskRef } from '../../contracts/common';
import { WAIT_MS_MAX } from '../../contracts/callOptions';
import { agentIdInput, aiTypes, projectRef, success } from './projectContracts';
import { contextOutput, handoffOutput } from './handoffContracts';

/**
 * Contracts of the runner and agent-instance tools of the agent PM: `health_check`,
 * `should_start`, `authenticate`, `logout`, `get_my_task`, `report_completed`, the deprecated
 * `get_pending_tasks` / `report_execution_start` / `report_execution_complete`, and the
 * execution logs. Names, enums and shapes are the contract's; `wait_ms` is ours.
 */

export const sessionTokenInput = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .optional()
  .describe(
    'The session_token authenticate returned; leave it out when the server holds your session (an agent launched by the runner)',
  );

/** How long get_my_task / get_pending_handoffs wait by default: not at all, as the contract answers at once. */
export const PM_WAIT_MS_DEFAULT = 0;

export const pmWaitMsInput = z
  .number()
  .int()
  .min(0)
  .max(WAIT_MS_MAX)
  .default(PM_WAIT_MS_DEFAULT)
  .describe(
    'When there is nothing yet, wait up to this many milliseconds (at most 50,000) and return the moment something arrives; 0 (default) answers at once',
  );

export const healthCheckInput = z.strictObject({});
export const healthCheckOutput = z.strictObject({
  status: z.literal('ok').describe('The server answers'),
  version: z.string().describe('Server version'),
  timestamp: z.string().describe('Server time (ISO)'),
  store: z.enum(['embedded', 'postgres']).describe('Which store engine this server runs on'),
});

export const shouldStartInput = z.strictObject({ agent_id: agentIdInput, project_id: projectRef });
export const shouldStartOutput = z.strictObject({
  should_start: z.boolean().describe('True when the runner should launch this agent in this project now'),
  ai_type: z.enum(aiTypes).optional().describe('Which agent CLI to launch; only when should_start is true'),
});

export const authenticateInput = z.strictObject({
  agent_id: agentIdInput,
  passkey: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe(
      'The agent’s passkey (set with `agent-ledger agent passkey`); leave it out when the runner launched you: the server logs you in with the ticket it was given',
    ),
  project_id: projectRef,
});
export const authenticateOutput = z.strictObject({
  success,
  session_token: z.string().describe('Pass on every call of this session; shown once, stored hashed'),
  expires_in: z
    .number()
    .int()
    .describe('Seconds of inactivity before the session expires; every call with the token extends it'),
  agent_name: z.string(),
  project_name: z.string(),
  system_prompt: z.string().describe('The agent’s role, from its definition'),
  instruction: z.string().describe('What to do next'),
});

export const logoutInput = z.strictObject({ session_token: sessionTokenInput });
export const logoutOutput = z.strictObject({ success });

export const getMyTaskInput = z.strictObject({ session_token: sessionTokenInput, wait_ms: pmWaitMsInput });
export const myTaskOutput = z.strictObject({
  task_id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  working_directory: z.string().describe('Absolute folder to work in'),
  context: contextOutput
    .nullable()
    .describe('The latest saved context (progress, findings, blockers, next steps), null when none'),
  handoff: handoffOutput
    .nullable()
    .describe('The latest handoff of the task for this agent (or for anyone), null when none'),
});
export const getMyTaskOutput = z.strictObject({
  success,
  has_task: z.boolean(),
  task: myTaskOutput.optional().describe('Only when has_task is true'),
  instruction: z.string().describe('What to do next'),
});

export const reportResults = ['success', 'failed', 'blocked'] as const;
export const reportCompletedInput = z.strictObject({
  session_token: sessionTokenInput,
  result: z
    .enum(reportResults)
    .describe(
      'success: done; failed: gave up; blocked: cannot go on (the task goes back to open with the summary as its blocker)',
    ),
  summary: z.string().max(20_000).optional().describe('What was done'),
  next_steps: z.string().max(20_000).optional().describe('What should happen next'),
});
export const reportCompletedOutput = z.strictObject({
  success,
  task_id: z.string().nullable().describe('The task reported on, null when the session had none'),
  status: z.string().nullable().describe('The task’s status now'),
  instruction: z.string(),
});

const deprecated = z.string().describe('This tool is deprecated; what to use instead');

export const getPendingTasksInput = z.strictObject({ session_token: sessionTokenInput });
export const getPendingTasksOutput = z.strictObject({
  success,
  deprecated,
  tasks: z.array(
    z.strictObject({
      taskId: z.string(),
      projectId: z.string(),
      title: z.string(),
      description: z.string().nullable(),
      priority: z.string(),
      workingDirectory: z.string(),
      assignedAt: z.string(),
    }),
  ),
});

export const reportExecutionStartInput = z.strictObject({ session_token: sessionTokenInput, task_id: taskRef });
export const reportExecutionStartOutput = z.strictObject({
  success,
  deprecated,
  execution_id: z.string(),
  started_at: z.string(),
});

/** `stopped`: a person stopped the run (execution_logs.stopped_by says who); not a failure. */
export const executionStatuses = ['running', 'completed', 'failed', 'error', 'stopped'] as const;

export const reportExecutionCompleteInput = z.strictObject({
  session_token: sessionTokenInput,
  execution_id: z
    .union([z.string().trim().min(1).max(100), z.number().int().positive()])
    .describe('The execution_id report_execution_start returned'),
  exit_code: z.number().int().describe('Exit code of the agent CLI (0 = success)'),
  duration_seconds: z.number().min(0).max(31_536_000).describe('How long it ran'),
  log_file_path: z.string().min(1).max(4096).describe('Where its output was written'),
});
export const reportExecutionCompleteOutput = z.strictObject({
  success,
  deprecated,
  execution_id: z.string(),
  completed_at: z.string(),
  status: z.enum(executionStatuses),
});

export const executionLogOutput = z.strictObject({
  executionId: z.string(),
  taskId: z.string().nullable(),
  agentId: z.string(),
  projectId: z.string().nullable(),
  status: z.enum(executionStatuses),
  result: z.enum(reportResults).nullable().describe('What report_completed said, null before it or without it'),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  startedAt: z.string(),
  completedAt: z.string().nullable(),
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  costUsd: z.number().nullable(),
  client: z
    .string()
    .nullable()
    .describe('What the runner started (claude, codex, gemini or a launch command); null for a run it did not start'),
});

export const listExecutionLogsInput = z.strictObject({
  task_id: taskRef.optional(),
  agent_id: agentIdInput.optional(),
  limit: z.number().int().min(1).max(500).default(20).describe('Most logs to return, newest first'),
});
export const listExecutionLogsOutput = z.strictObject({ success, logs: z.array(executionLogOutput) });

export const getExecutionLogInput = z.strictObject({
  execution_id: z
    .union([z.string().trim().min(1).max(100), z.number().int().positive()])
    .describe('Execution ID, e.g. "exec-3"'),
});
export const getExecutionLogOutput = z.strictObject({
  success,
  log: executionLogOutput.extend({
    logFilePath: z.string().nullable(),
    summary: z.string().nullable(),
    error: z.string().nullable(),
    workingDirectory: z
      .string()
      .nullable()
      .describe(
        'The folder the run worked in: the project’s folder in the task’s worktree; null for a run the runner did not start',
      ),
  }),
});

export type ReportResult = (typeof reportResults)[number];
export type ExecutionStatus = (typeof executionStatuses)[number];
export type ExecutionLog = z.infer<typeof executionLogOutput>;
export type ExecutionLogDetail = z.infer<typeof getExecutionLogOutput>['log'];
export type MyTask = z.infer<typeof myTaskOutput>;
