import { z } from 'zod';

/**
 * Ids as seed 002 shows them (numbers), also accepted in the other shapes one resolver
 * understands ("task-5", "#5", "5"); `parseId` turns them into the integer.
 */
export const taskRef = z.union([z.number().int().positive(), z.string().min(1).max(100)]).describe('Task ID, e.g. 5 ("task-5" and "#5" work too)');
export const sessionRef = z.union([z.number().int().positive(), z.string().min(1).max(100)]).describe('Session ID, e.g. 123 (as returned by session_start or worker_command)');
export const workflowRef = z.union([z.number().int().positive(), z.string().min(1).max(100)]).describe('Workflow ID, e.g. "wf-2" or 2');
export const agentName = z.string().min(1).max(100).describe('Agent name, as in .agent-ledger/agents/<name>.yaml (e.g. "coder")');
