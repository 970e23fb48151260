import { coordinationError } from '../coordinationErrors';
import { eventCategory } from '../../events/eventKinds';
import { isValidUriSegment, scUri } from '../resources/scUris';

/**
 * Event records of the orchestrator tools. One record, two spellings:
 * - camelCase for `resources_watch` / `resources_read` (the seed's `ResourceRunEvent`:
 *   `seq, ts, kind, level, jobId, runId, opId, graphId, nodeId, childId, payload`);
 * - snake_case for `events_subscribe` (self-codex `src/orchestrator/runtime.ts`:
 *   `seq, ts, cat, kind, level, job_id, run_id, op_id, graph_id, node_id, child_id, msg, data`).
 * Correlation ids are always present, `null` when unknown, never absent.
 */
export const eventLevels = ['debug', 'info', 'warn', 'error'] as const;
export type EventLevel = (typeof eventLevels)[number];

export interface CoordinationEvent {
  /** Position in the one events log; strictly increasing. */
  seq: number;
  /** Epoch milliseconds. */
  ts: number;
  /** What happened, as written by the emitter (e.g. `task.started`, `bb_set`). */
  kind: string;
  level: EventLevel;
  jobId: string | null;
  runId: string | null;
  opId: string | null;
  graphId: string | null;
  nodeId: string | null;
  childId: string | null;
  payload: unknown;
}

/** The snake_case record `events_subscribe` returns (and its SSE `data:` carries verbatim). */
export interface BusEventRecord {
  seq: number;
  ts: number;
  /** Family of the event: the kind up to its first `.`, `_` or `:`, lower-cased. */
  cat: string;
  /** The kind, upper-cased (the SSE `event:` field). */
  kind: string;
  level: EventLevel;
  job_id: string | null;
  run_id: string | null;
  op_id: string | null;
  graph_id: string | null;
  node_id: string | null;
  child_id: string | null;
  /** The kind as the emitter wrote it. */
  msg: string;
  data: unknown;
}

type Correlation = Pick<CoordinationEvent, 'jobId' | 'runId' | 'opId' | 'graphId' | 'nodeId' | 'childId'>;

/** Builds an event with every correlation id present (`null` when not given). */
export function newCoordinationEvent(
  fields: Pick<CoordinationEvent, 'seq' | 'ts' | 'kind'> &
    Partial<Correlation> & { level?: EventLevel; payload?: unknown },
): CoordinationEvent {
  return {
    seq: fields.seq,
    ts: fields.ts,
    kind: fields.kind,
    level: fields.level ?? 'info',
    jobId: fields.jobId ?? null,
    runId: fields.runId ?? null,
    opId: fields.opId ?? null,
    graphId: fields.graphId ?? null,
    nodeId: fields.nodeId ?? null,
    childId: fields.childId ?? null,
    payload: fields.payload ?? null,
  };
}

/** The upper-cased kind: what SSE's `event:` field and `events_subscribe`'s `kind` carry. */
export function normaliseEventKind(kind: string): string {
  return kind.trim().toUpperCase();
}

/** The snake_case `events_subscribe` record of an event. */
export function toBusEventRecord(e: CoordinationEvent): BusEventRecord {
  return {
    seq: e.seq,
    ts: e.ts,
    cat: eventCategory(e.kind),
    kind: normaliseEventKind(e.kind),
    level: e.level,
    job_id: e.jobId,
    run_id: e.runId,
    op_id: e.opId,
    graph_id: e.graphId,
    node_id: e.nodeId,
    child_id: e.childId,
    msg: messageOf(e),
    data: e.payload ?? null,
  };
}

/**
 * The `msg` of an event: the one its payload names (SCHEDULER events say `scheduler_tick_result`
 * or `scheduler_event_enqueued`, contract-net's `cnp_watcher_telemetry`), else its kind as written.
 */
function messageOf(e: CoordinationEvent): string {
  const msg = typeof e.payload === 'object' && e.payload !== null ? (e.payload as { msg?: unknown }).msg : undefined;
  return typeof msg === 'string' && msg.length > 0 ? msg : e.kind;
}

/** Filters of `events_subscribe` (and of run streams in `resources_watch`). All given ones must match. */
export interface EventFilter {
  /** Kinds, compared upper-cased. */
  kinds?: readonly string[];
  /** Families (see {@link eventCategory}), compared lower-cased. */
  cats?: readonly string[];
  levels?: readonly EventLevel[];
  run_id?: string;
  op_id?: string;
  job_id?: string;
  graph_id?: string;
  node_id?: string;
  child_id?: string;
  /** Keeps events one of whose resources (see {@link eventResourceUris}) starts with this. */
  uri_prefix?: string;
}

/** The `sc://` resources an event is about, derived from its correlation ids. */
export function eventResourceUris(e: CoordinationEvent): string[] {
  const uris: string[] = [];
  if (e.graphId !== null && isValidUriSegment(e.graphId, true)) uris.push(scUri.graph(e.graphId));
  if (e.runId !== null && isValidUriSegment(e.runId)) uris.push(scUri.runEvents(e.runId));
  if (e.childId !== null && isValidUriSegment(e.childId)) uris.push(scUri.childLogs(e.childId));
  return uris;
}

/** True when `e` passes every filter given. */
export function matchesEventFilter(e: CoordinationEvent, f: EventFilter): boolean {
  if (f.kinds && f.kinds.length > 0 && !f.kinds.some((k) => normaliseEventKind(k) === normaliseEventKind(e.kind)))
    return false;
  if (f.cats && f.cats.length > 0 && !f.cats.some((c) => c.trim().toLowerCase() === eventCategory(e.kind)))
    return false;
  if (f.levels && f.levels.length > 0 && !f.levels.includes(e.level)) return false;
  if (f.run_id !== undefined && e.runId !== f.run_id) return false;
  if (f.op_id !== undefined && e.opId !== f.op_id) return false;
  if (f.job_id !== undefined && e.jobId !== f.job_id) return false;
  if (f.graph_id !== undefined && e.graphId !== f.graph_id) return false;
  if (f.node_id !== undefined && e.nodeId !== f.node_id) return false;
  if (f.child_id !== undefined && e.childId !== f.child_id) return false;
  if (f.uri_prefix !== undefined && !eventResourceUris(e).some((u) => u.startsWith(f.uri_prefix!))) return false;
  return true;
}

export interface EventPage<E> {
  events: E[];
  /** Cursor for the next call (`from_seq = next_seq`): never skips nor repeats an event. */
  next_seq: number;
}

/**
 * One page of events after `from_seq` (exclusive) that pass `filter`, at most `limit`.
 * `events` must be in `seq` order. `next_seq` is the last returned seq, or — when a filter
 * dropped the rest — the last seq examined, so filtered-out events are not scanned again.
 */
export function pageEvents(
  events: readonly CoordinationEvent[],
  options: { from_seq: number; limit: number; filter?: EventFilter },
): EventPage<CoordinationEvent> {
  const out: CoordinationEvent[] = [];
  let cursor = options.from_seq;
  for (const e of events) {
    if (e.seq <= options.from_seq) continue;
    if (out.length >= options.limit) break;
    cursor = e.seq;
    if (!options.filter || matchesEventFilter(e, options.filter)) out.push(e);
  }
  return { events: out, next_seq: cursor };
}

/**
 * Throws `E-EVT-CURSOR-EXPIRED` when events after `from_seq` were already dropped by the
 * retention rule, i.e. the oldest kept event is further than one past the cursor. A cursor
 * of 0 ("from the start") is always accepted.
 */
export function assertCursorRetained(fromSeq: number, oldestRetainedSeq: number | null): void {
  if (fromSeq === 0 || oldestRetainedSeq === null || oldestRetainedSeq <= fromSeq + 1) return;
  throw coordinationError(
    'E-EVT-CURSOR-EXPIRED',
    `events ${fromSeq + 1} to ${oldestRetainedSeq - 1} are no longer kept`,
    {
      from_seq: fromSeq,
      oldest_seq: oldestRetainedSeq,
      hint: `restart from_seq at ${oldestRetainedSeq - 1} and reload the state with resources_read`,
    },
  );
}
