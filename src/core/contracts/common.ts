import { z } from 'zod';

/**
 * Pieces many tool contracts share. Ids accept every shape one resolver understands (`parseId`):
 * the task-management contract's numbers (`5`), the prefixed keys other tools return (`"task-5"`), `"#5"`, `"5"`.
 * There is one schema per kind of id; a tool may only give it its own description.
 */

const idRef = z.union([z.number().int().positive(), z.string().min(1).max(100)]);

/** Any shape of a task id. */
export const taskRef = idRef.describe('Task ID, e.g. 5 ("task-5" and "#5" work too)');
export const sessionRef = idRef.describe('Session ID, e.g. 123 (as returned by session_start or worker_command)');
export const workflowRef = idRef.describe('Workflow ID, e.g. "wf-2" or 2');
export const agentName = z
  .string()
  .min(1)
  .max(100)
  .describe('Agent name, as in .agent-ledger/agents/<name>.yaml (e.g. "coder")');

/** A file of a folder the ledger indexes (agents, Memory Bank) that could not be used, and why. */
export const fileProblemOutput = z.object({ file: z.string(), message: z.string() });

/** `limit` / `offset` / `nextOffset` of a paginated list. */
export const pageLimit = (defaultLimit: number, what: string) =>
  z.number().int().min(1).max(500).default(defaultLimit).describe(`Maximum number of ${what} to return`);
export const nextOffsetOutput = z
  .number()
  .nullable()
  .describe('Pass as offset for the next page; null on the last page');
