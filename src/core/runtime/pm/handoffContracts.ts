import { z } from 'zod';
import { taskRef } from '../../contracts/common';
import { waitMs } from '../../contracts/callOptions';

/**
 * Contracts of the context and handoff tools of the agent PM (`save_context`,
 * `get_task_context`, `create_handoff`, `accept_handoff`, `get_pending_handoffs`). Field names
 * are the contract's; `agent_id` on save_context and `wait_ms` are ours.
 */

const text = (what: string) => z.string().max(20_000).optional().describe(what);
const agentId = z.string().trim().min(1).max(100);
const ok = z.literal(true).describe('Always true; a refusal is an error result with a code');

export const contextOutput = z.strictObject({
  context_id: z.number().int().describe('Increasing id of the saved context'),
  task_id: z.string(),
  agent_id: z.string().nullable().describe('Agent that saved it, when known'),
  progress: z.string().nullable(),
  findings: z.string().nullable(),
  blockers: z.string().nullable(),
  next_steps: z.string().nullable(),
  created_at: z.string(),
});

export const handoffStatuses = ['pending', 'accepted'] as const;

export const handoffOutput = z.strictObject({
  handoff_id: z.string().describe('Handoff ID, e.g. "handoff-2"'),
  task_id: z.string(),
  from_agent_id: z.string(),
  to_agent_id: z.string().nullable().describe('null: whoever takes the task next'),
  summary: z.string(),
  context: z.string().nullable(),
  recommendations: z.string().nullable(),
  status: z.enum(handoffStatuses),
  created_at: z.string(),
  accepted_at: z.string().nullable(),
  accepted_by: z.string().nullable(),
});

export const saveContextInput = z.strictObject({
  task_id: taskRef,
  progress: text('Where the work stands'),
  findings: text('What was found out'),
  blockers: text('What stands in the way'),
  next_steps: text('What comes next'),
  agent_id: agentId.optional().describe('Agent saving it (recorded with the context)'),
});
export const saveContextOutput = z.strictObject({ success: ok, context: contextOutput });

export const getTaskContextInput = z.strictObject({
  task_id: taskRef,
  include_history: z.boolean().default(false).describe('Also return every earlier context, oldest first'),
});
export const getTaskContextOutput = z.strictObject({
  success: ok,
  task_id: z.string(),
  context: contextOutput.nullable().describe('The latest context, null when none was saved'),
  history: z.array(contextOutput).optional().describe('Every context, oldest first (include_history only)'),
});

export const createHandoffInput = z.strictObject({
  task_id: taskRef,
  from_agent_id: agentId.describe('Agent handing the work over'),
  to_agent_id: agentId.optional().describe('Agent taking it over; absent: whoever takes the task next'),
  summary: z.string().trim().min(1).max(20_000).describe('What was done and what is left'),
  context: text('Context the next agent needs'),
  recommendations: text('What the next agent should do'),
});
export const createHandoffOutput = z.strictObject({ success: ok, handoff: handoffOutput });

export const acceptHandoffInput = z.strictObject({
  handoff_id: z
    .union([z.string().trim().min(1).max(100), z.number().int().positive()])
    .describe('Handoff ID, e.g. "handoff-2"'),
  agent_id: agentId.describe('Agent accepting it (the recipient, or anyone when it has none)'),
});
export const acceptHandoffOutput = z.strictObject({ success: ok, handoff: handoffOutput });

export const getPendingHandoffsInput = z.strictObject({
  agent_id: agentId
    .optional()
    .describe('Only handoffs this agent may accept (addressed to it, or to nobody); absent: every pending handoff'),
  wait_ms: waitMs(
    0,
    'When none is pending, wait up to this many milliseconds (at most 50,000) and return the moment one is created; 0 (default) answers at once',
  ),
});
export const getPendingHandoffsOutput = z.strictObject({
  success: ok,
  handoffs: z.array(handoffOutput).describe('Pending handoffs, oldest first'),
});

export type TaskContext = z.infer<typeof contextOutput>;
export type Handoff = z.infer<typeof handoffOutput>;
