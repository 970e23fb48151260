import { z } from 'zod';
import {
  correlationInput,
  idempotencyKeyInput,
  idempotencyOutput,
  opIdInput,
  opIdOutput,
  waitMsInput,
} from '../../contracts/callOptions';
import { BB_TAGS_MAX, BB_TTL_MAX_MS } from './blackboardRules';

/**
 * Contracts of the blackboard tools (self-codex `src/tools/coordTools.ts`: `bb_set`,
 * `bb_batch_set`, `bb_get`, `bb_query`, `bb_watch`). `bb_delete`, `key_prefix`, the
 * idempotency key and `wait_ms` are ours.
 */

const key = z.string().min(1).max(256);
const tags = z.array(z.string().trim().min(1).max(64)).max(BB_TAGS_MAX);
const ttl = z.number().int().min(1).max(BB_TTL_MAX_MS);

const entryWrite = {
  key: key.describe('Key of the entry; the text before the first ":", "/" or "|" is its namespace'),
  value: z.unknown().describe('Any plain JSON value (no functions, cycles or huge blobs)'),
  tags: tags.default([]).describe('Tags for bb_query, stored lower-cased'),
  ttl_ms: ttl
    .optional()
    .describe('Lifetime in milliseconds; the entry disappears for every reader after it. Absent: kept until deleted'),
};

/** A stored entry as the blackboard tools return it. */
export const blackboardEntryOutput = z.strictObject({
  key: z.string().describe('Key of the entry'),
  value: z.unknown().describe('Stored JSON value'),
  tags: z.array(z.string()).describe('Tags, lower-cased and sorted'),
  version: z.number().int().describe('Blackboard version of the write that produced this entry'),
  created_at: z.number().int().describe('First written (epoch ms)'),
  updated_at: z.number().int().describe('Last written (epoch ms)'),
  expires_at: z.number().int().nullable().describe('When it disappears (epoch ms), null for never'),
});

export const bbSetInput = z.strictObject({ ...entryWrite, ...idempotencyKeyInput, ...correlationInput });

export const bbSetOutput = z.strictObject({ ...opIdOutput, ...blackboardEntryOutput.shape, ...idempotencyOutput });

export const bbBatchSetInput = z.strictObject({
  entries: z
    .array(z.strictObject(entryWrite))
    .min(1)
    .max(100)
    .describe('Entries written together: all of them or, if one value cannot be stored, none'),
  ...idempotencyKeyInput,
  ...correlationInput,
});

export const bbBatchSetOutput = z.strictObject({
  ...opIdOutput,
  entries: z.array(blackboardEntryOutput).describe('The written entries, in input order'),
  ...idempotencyOutput,
});

export const bbGetInput = z.strictObject({ key: key.describe('Key to read'), ...opIdInput });

export const bbGetOutput = z.strictObject({ ...opIdOutput, entry: blackboardEntryOutput.describe('The entry') });

export const bbQueryInput = z.strictObject({
  keys: z.array(key).max(64).optional().describe('Only these keys'),
  key_prefix: z.string().min(1).max(256).optional().describe('Only keys starting with this, e.g. "plan:"'),
  tags: tags.optional().describe('Only entries carrying all these tags'),
  limit: z.number().int().min(1).max(100).default(25).describe('Most entries to return, most recently updated first'),
  ...opIdInput,
});

export const bbQueryOutput = z.strictObject({
  ...opIdOutput,
  entries: z.array(blackboardEntryOutput).describe('Matching visible entries, most recently updated first'),
  next_cursor: z.number().int().nullable().describe('Version of the last entry returned, null when none'),
});

/** A change of the blackboard as `bb_watch` returns it. */
export const blackboardEventOutput = z.strictObject({
  version: z.number().int().describe('Blackboard version of the change; pass the last one as start_version'),
  kind: z.enum(['set', 'delete', 'expire']).describe('What happened to the key'),
  key: z.string().describe('The key'),
  timestamp: z.number().int().describe('When it happened (epoch ms)'),
  reason: z.string().nullable().describe('Why an entry expired (ttl), null otherwise'),
  entry: blackboardEntryOutput.nullable().describe('The entry after the change, null for delete and expire'),
  previous: blackboardEntryOutput.nullable().describe('The entry before the change, null when new'),
});

export const bbWatchInput = z.strictObject({
  start_version: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Return changes after this version (next_version of the previous call)'),
  limit: z.number().int().min(1).max(200).default(100).describe('Most changes to return'),
  key_prefix: z.string().min(1).max(256).optional().describe('Only changes of keys starting with this'),
  wait_ms: waitMsInput,
  ...opIdInput,
});

export const bbWatchOutput = z.strictObject({
  ...opIdOutput,
  events: z.array(blackboardEventOutput).describe('Changes after start_version, oldest first'),
  next_version: z.number().int().describe('Pass as start_version next time'),
});

export const bbDeleteInput = z.strictObject({ key: key.describe('Key to delete'), ...correlationInput });

export const bbDeleteOutput = z.strictObject({
  ...opIdOutput,
  key: z.string().describe('The key'),
  deleted: z.boolean().describe('False when there was no visible entry to delete'),
  version: z.number().int().nullable().describe('Blackboard version of the deletion, null when nothing was deleted'),
});

export type BlackboardEntryOutput = z.infer<typeof blackboardEntryOutput>;
export type BbSetInput = z.infer<typeof bbSetInput>;
export type BbSetOutput = z.infer<typeof bbSetOutput>;
export type BbBatchSetInput = z.infer<typeof bbBatchSetInput>;
export type BbBatchSetOutput = z.infer<typeof bbBatchSetOutput>;
export type BbGetInput = z.infer<typeof bbGetInput>;
export type BbGetOutput = z.infer<typeof bbGetOutput>;
export type BbQueryInput = z.infer<typeof bbQueryInput>;
export type BbQueryOutput = z.infer<typeof bbQueryOutput>;
export type BbWatchInput = z.infer<typeof bbWatchInput>;
export type BbWatchOutput = z.infer<typeof bbWatchOutput>;
export type BbDeleteInput = z.infer<typeof bbDeleteInput>;
export type BbDeleteOutput = z.infer<typeof bbDeleteOutput>;
