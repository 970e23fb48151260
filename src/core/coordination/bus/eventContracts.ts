import { z } from 'zod';
import { correlationDescriptions, correlationOutput, PAGE_LIMIT_MAX, waitMsInput } from '../../contracts/callOptions';
import { eventLevels } from './eventRecords';
import { eventCategories } from '../../events/eventKinds';

/**
 * Contract of `events_subscribe` (fields of self-codex `src/orchestrator/runtime.ts`:
 * `cats`, `levels`, the six correlation ids as filters, `from_seq`, `limit`,
 * `format: jsonlines | sse`); `kinds`, `uri_prefix` and `wait_ms` are ours.
 */

const filterId = (key: keyof typeof correlationDescriptions) =>
  z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe(`Only events with this ${key}: ${correlationDescriptions[key].toLowerCase()}`);

export const eventsSubscribeInput = z.strictObject({
  cats: z
    .array(z.enum(eventCategories))
    .max(10)
    .optional()
    .describe('Only these families (an event kind up to its first . or _: task.started is task, bb_set_replayed bb)'),
  kinds: z
    .array(z.string().trim().min(1).max(100))
    .max(20)
    .optional()
    .describe('Only these kinds (case-insensitive), e.g. TASK.STARTED'),
  levels: z.array(z.enum(eventLevels)).max(4).optional().describe('Only these severities'),
  run_id: filterId('run_id'),
  op_id: filterId('op_id'),
  job_id: filterId('job_id'),
  graph_id: filterId('graph_id'),
  node_id: filterId('node_id'),
  child_id: filterId('child_id'),
  uri_prefix: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe('Only events about a resource whose sc:// URI starts with this'),
  from_seq: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Return events after this position (the next_seq of the previous call)'),
  limit: z.number().int().positive().max(PAGE_LIMIT_MAX).optional().describe('Most events to return'),
  format: z
    .enum(['jsonlines', 'sse'])
    .optional()
    .describe('Form of the stream field: JSON lines, or Server-Sent Events'),
  wait_ms: waitMsInput,
});

/** One event as `events_subscribe` returns it; the SSE `data:` line carries exactly this. */
export const busEventOutput = z.strictObject({
  seq: z.number().int().describe('Position in the events log'),
  ts: z.number().int().describe('When it happened (epoch ms)'),
  cat: z.string().describe('Family of the event'),
  kind: z.string().describe('What happened, upper-cased'),
  level: z.enum(eventLevels).describe('Severity'),
  ...correlationOutput,
  msg: z
    .string()
    .describe(
      'What happened in detail: the message the event names (e.g. scheduler_tick_result), else its kind as written',
    ),
  data: z.unknown().describe('Details of the event'),
});

export const eventsSubscribeOutput = z.strictObject({
  format: z.enum(['jsonlines', 'sse']).describe('Form of stream'),
  events: z.array(busEventOutput).describe('Matching events after from_seq, oldest first'),
  stream: z.string().describe('The same events as JSON lines or as an SSE stream'),
  next_seq: z.number().int().describe('Pass as from_seq next time; nothing is skipped or repeated'),
  count: z.number().int().describe('Number of events returned'),
});

export type EventsSubscribeInput = z.infer<typeof eventsSubscribeInput>;
export type EventsSubscribeOutput = z.infer<typeof eventsSubscribeOutput>;
export type BusEventOutput = z.infer<typeof busEventOutput>;
