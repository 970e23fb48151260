import { z } from 'zod';
import { agentName, nextOffsetOutput, pageLimit, sessionRef, taskRef } from '../contracts/common';

/** session_start, session_end and session_list (the task-management contract): inputs and results. */

import { dodResults, sessionErrorTypes, sessionStatuses } from './sessionValues';

export { dodResults, sessionErrorTypes, sessionStatuses };
export type { DodResult, SessionStatus } from './sessionValues';

export const sessionStartInput = z.strictObject({
  taskId: taskRef,
  agent: agentName,
  sessionGroupId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Groups sessions started together (e.g. one orchestrator run)'),
  idempotencyKey: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Retrying with the same key returns the session already started instead of a second one'),
  allowConcurrent: z
    .boolean()
    .default(false)
    .describe('Start even though this agent already has a running session on the task'),
});

/** A worktree-relative path: never absolute, never climbing out with "..". */
const relativePath = z
  .string()
  .min(1)
  .max(1000)
  .refine(
    (p) => !/^([\\/]|[A-Za-z]:)/.test(p) && !p.split(/[\\/]/).includes('..'),
    'must be a path relative to the worktree, without ".."',
  );

export const sessionEndInput = z.strictObject({
  sessionId: sessionRef,
  exitCode: z.number().int().min(-1_000_000).max(1_000_000).describe('Worker process exit code'),
  signal: z.string().min(1).max(50).optional().describe('Termination signal (SIGTERM, SIGKILL, etc.)'),
  dodResult: z.enum(dodResults).optional().describe('Definition of Done result'),
  artifacts: z.array(relativePath).max(5000).optional().describe('List of modified file paths (worktree relative)'),
  error: z
    .strictObject({
      type: z.enum(sessionErrorTypes).describe('Kind of failure'),
      message: z.string().max(10_000).optional().describe('What happened'),
    })
    .optional()
    .describe('Error details if failed'),
});

export const sessionListInput = z.strictObject({
  taskId: taskRef.optional(),
  status: z.enum(sessionStatuses).optional().describe('Only sessions in this state'),
  agent: agentName.optional(),
  limit: pageLimit(50, 'sessions'),
  offset: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('How many matching sessions to skip (nextOffset of the previous page)'),
});

export const sessionStartOutput = z.object({
  sessionId: z.number(),
  startedAt: z.string(),
  taskId: z.number(),
  agent: z.string(),
  replayed: z.boolean().describe('True when idempotencyKey matched an earlier call: nothing new was started'),
});

/** A session in tool results and the CLI's --json. */
export const sessionOutput = z.looseObject({
  id: z.number(),
  taskId: z.number(),
  agent: z.string(),
  status: z.enum(sessionStatuses),
  worktree: z.string().nullable(),
  branch: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
});

export const sessionListOutput = z.object({
  sessions: z.array(sessionOutput),
  total: z.number(),
  nextOffset: nextOffsetOutput,
});

export type SessionStartInput = z.infer<typeof sessionStartInput>;
export type SessionEndInput = z.infer<typeof sessionEndInput>;
export type SessionListInput = z.infer<typeof sessionListInput>;
export type SessionStartResult = z.infer<typeof sessionStartOutput>;
