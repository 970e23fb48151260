import { z } from 'zod';
import { PAGE_LIMIT_MAX, waitMsInput } from '../../contracts/callOptions';
import { eventLevels } from '../bus/eventRecords';
import { planGraphOutput } from '../plans/graphContracts';
import { resourceKinds } from './scUris';

/**
 * Contracts of `resources_list`, `resources_read` and `resources_watch` over `sc://` URIs.
 * Record and payload shapes are the seed's (camelCase inside payloads, as self-codex
 * `src/resources/registry.ts` returns them); `wait_ms` is ours.
 */

const uri = z.string().min(1).max(1000).describe('An sc:// URI, e.g. sc://runs/<runId>/events or sc://graphs/<graphId>@v3');
const nullableId = (what: string) => z.string().nullable().describe(what);
const limit = z.number().int().positive().max(PAGE_LIMIT_MAX);

export const resourceKindOutput = z.enum(resourceKinds).describe('What the URI names');

export const resourcesListInput = z.strictObject({
  prefix: z.string().trim().min(1).max(1000).optional().describe('Only URIs starting with this, e.g. sc://graphs/'),
  limit: limit.optional().describe('Most items to return'),
});

export const resourcesListOutput = z.strictObject({
  items: z
    .array(
      z.strictObject({
        uri: z.string().describe('The resource URI'),
        kind: resourceKindOutput,
        metadata: z.record(z.string(), z.unknown()).optional().describe('Hints such as latest_version or entry_count'),
      }),
    )
    .describe('Resources in URI order'),
});

export const resourcesReadInput = z.strictObject({ uri });

/** An event of a run stream (the seed's `ResourceRunEvent`). */
export const runEventOutput = z.strictObject({
  seq: z.number().int().describe('Position in the events log'),
  ts: z.number().int().describe('When it happened (epoch ms)'),
  kind: z.string().describe('What happened'),
  level: z.enum(eventLevels).describe('Severity'),
  jobId: nullableId('Job id, null when unknown'),
  runId: z.string().describe('Run the event belongs to'),
  opId: nullableId('Operation id, null when unknown'),
  graphId: nullableId('Graph id, null when unknown'),
  nodeId: nullableId('Graph node id, null when unknown'),
  childId: nullableId('Child runtime id, null when unknown'),
  payload: z.unknown().describe('Details of the event'),
});

/** A line of a child runtime's log (the seed's `ResourceChildLogEntry`). */
export const childLogEntryOutput = z.strictObject({
  seq: z.number().int().describe('Position in the child log'),
  ts: z.number().int().describe('When it was written (epoch ms)'),
  stream: z.enum(['stdout', 'stderr', 'meta']).describe('Output stream'),
  message: z.string().describe('The line, readable'),
  jobId: nullableId('Job id, null when unknown'),
  runId: nullableId('Run id, null when unknown'),
  opId: nullableId('Operation id, null when unknown'),
  graphId: nullableId('Graph id, null when unknown'),
  nodeId: nullableId('Graph node id, null when unknown'),
  childId: z.string().describe('Child runtime that wrote it'),
  raw: z.string().nullable().describe('The raw line, null when none'),
  parsed: z.unknown().describe('The line decoded as JSON, when it was JSON'),
});

/** A blackboard entry inside resource payloads. */
export const blackboardEntrySnapshotOutput = z.strictObject({
  key: z.string().describe('Entry key'),
  value: z.unknown().describe('Stored JSON value'),
  tags: z.array(z.string()).describe('Tags, lower-cased and sorted'),
  createdAt: z.number().int().describe('First written (epoch ms)'),
  updatedAt: z.number().int().describe('Last written (epoch ms)'),
  expiresAt: z.number().int().nullable().describe('When it disappears (epoch ms), null for never'),
  version: z.number().int().describe('Version of the last write'),
});

/** A change of a blackboard namespace. */
export const blackboardResourceEventOutput = z.strictObject({
  seq: z.number().int().describe('Position in the namespace stream'),
  version: z.number().int().describe('Blackboard version of the change'),
  ts: z.number().int().describe('When it happened (epoch ms)'),
  kind: z.enum(['set', 'delete', 'expire']).describe('What happened to the key'),
  namespace: z.string().describe('Namespace of the key'),
  key: z.string().describe('The key'),
  entry: blackboardEntrySnapshotOutput.nullable().describe('The entry after the change, null for delete and expire'),
  previous: blackboardEntrySnapshotOutput.nullable().describe('The entry before the change, null when new'),
  reason: z.string().nullable().describe('Why an entry expired (ttl), null otherwise'),
});

const graphPayload = z.strictObject({
  graphId: z.string().describe('Id of the graph'),
  version: z.number().int().describe('Version read'),
  committedAt: z.number().int().nullable().describe('Commit time of that version (epoch ms)'),
  graph: planGraphOutput.describe('The graph at that version'),
});

const snapshotPayload = z.strictObject({
  graphId: z.string().describe('Id of the graph'),
  txId: z.string().describe('Id of the change'),
  baseVersion: z.number().int().describe('Version the change started from'),
  startedAt: z.number().int().describe('When it started (epoch ms)'),
  state: z.enum(['pending', 'committed', 'rolled_back']).describe('Outcome of the change'),
  committedAt: z.number().int().nullable().describe('When it committed, null otherwise'),
  finalVersion: z.number().int().nullable().describe('Version it produced, null otherwise'),
  baseGraph: planGraphOutput.describe('The graph before'),
  finalGraph: planGraphOutput.nullable().describe('The graph after, null unless committed'),
  owner: z.string().nullable().describe('Who made the change'),
  note: z.string().nullable().describe('Why the change was made'),
  expiresAt: z.number().int().nullable().describe('When a pending change lapses'),
});

export const resourcesReadOutput = z.strictObject({
  uri: z.string().describe('The URI read'),
  kind: resourceKindOutput,
  payload: z
    .union([
      graphPayload,
      snapshotPayload,
      z.strictObject({ runId: z.string().describe('Run id'), events: z.array(runEventOutput).describe('Its events, oldest first') }),
      z.strictObject({ childId: z.string().describe('Child runtime id'), logs: z.array(childLogEntryOutput).describe('Its log, oldest first') }),
      z.strictObject({ namespace: z.string().describe('Namespace'), entries: z.array(blackboardEntrySnapshotOutput).describe('Its visible entries') }),
    ])
    .describe('Content of the resource; its shape depends on kind'),
});

const ids = (what: string) => z.array(z.string().trim().min(1).max(200)).max(20).optional().describe(what);

export const resourcesWatchInput = z.strictObject({
  uri,
  from_seq: z.number().int().min(0).optional().describe('Return what comes after this position (the next_seq of the previous call); 0 or absent for the start'),
  limit: limit.optional().describe('Most records to return'),
  format: z.enum(['json', 'sse']).optional().describe('sse also returns the records as Server-Sent Events messages and a ready stream'),
  keys: ids('Blackboard streams: only these keys'),
  run: z
    .strictObject({
      levels: z.array(z.enum(eventLevels)).max(4).optional().describe('Only these severities'),
      kinds: ids('Only these kinds'),
      job_ids: ids('Only these job ids'),
      op_ids: ids('Only these operation ids'),
      graph_ids: ids('Only these graph ids'),
      node_ids: ids('Only these node ids'),
      child_ids: ids('Only these child ids'),
    })
    .optional()
    .describe('Run streams: filters on events'),
  blackboard: z
    .strictObject({
      kinds: z.array(z.enum(['set', 'delete', 'expire'])).max(3).optional().describe('Only these changes'),
      tags: ids('Only entries with all these tags'),
    })
    .optional()
    .describe('Blackboard streams: filters on changes'),
  wait_ms: waitMsInput,
});

/** A Server-Sent Events message: `id` is the seq, `event` the upper-cased kind, `data` one JSON line. */
export const sseMessageOutput = z.strictObject({
  id: z.string().describe('The record seq'),
  event: z.string().describe('The record kind, upper-cased'),
  data: z.string().describe('The record as JSON on one line'),
});

export const resourcesWatchOutput = z.strictObject({
  uri: z.string().describe('The URI watched'),
  kind: resourceKindOutput,
  events: z.array(z.union([runEventOutput, childLogEntryOutput, blackboardResourceEventOutput])).describe('Records after from_seq, oldest first'),
  next_seq: z.number().int().describe('Pass as from_seq next time; nothing is skipped or repeated'),
  format: z.enum(['json', 'sse']).describe('Format of this answer'),
  messages: z.array(sseMessageOutput).optional().describe('The records as SSE messages (sse format)'),
  stream: z.string().optional().describe('The messages as one SSE stream (sse format)'),
});

export type ResourcesListInput = z.infer<typeof resourcesListInput>;
export type ResourcesListOutput = z.infer<typeof resourcesListOutput>;
export type ResourcesReadInput = z.infer<typeof resourcesReadInput>;
export type ResourcesReadOutput = z.infer<typeof resourcesReadOutput>;
export type ResourcesWatchInput = z.infer<typeof resourcesWatchInput>;
export type ResourcesWatchOutput = z.infer<typeof resourcesWatchOutput>;
export type RunEventOutput = z.infer<typeof runEventOutput>;
