import type { LogEntry, LogReaderPort } from '../../ports/processes';
import type { ChildRow } from './childStore';

/**
 * A child's log as the `sc://children/<id>/logs` registry gives it (the seed's
 * `ResourceChildLogEntry`): the supervisor's JSON Lines entries with the child's correlation ids,
 * `raw` the line as printed and `parsed` the line decoded when it is JSON (a meta entry's details).
 */
export interface ChildLogEntry {
  seq: number;
  ts: number;
  stream: 'stdout' | 'stderr' | 'meta';
  message: string;
  jobId: string | null;
  runId: string | null;
  opId: string | null;
  graphId: string | null;
  nodeId: string | null;
  childId: string;
  raw: string | null;
  parsed: unknown;
}

function parsedOf(entry: LogEntry): unknown {
  if (entry.stream === 'meta') return entry.data ?? null;
  const text = entry.message.trim();
  if (!(text.startsWith('{') || text.startsWith('['))) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function toChildLogEntry(
  entry: LogEntry,
  row: Pick<ChildRow, 'child_id' | 'run_id' | 'op_id' | 'job_id' | 'graph_id' | 'node_id'>,
): ChildLogEntry {
  return {
    seq: entry.seq,
    ts: entry.ts,
    stream: entry.stream,
    message: entry.message,
    jobId: row.job_id,
    runId: row.run_id,
    opId: row.op_id,
    graphId: row.graph_id,
    nodeId: row.node_id,
    childId: row.child_id,
    raw: entry.stream === 'meta' ? null : entry.message,
    parsed: parsedOf(entry),
  };
}

/** A place in a log: every entry from `offset` on has a seq above `seq`. */
export interface LogMark {
  seq: number;
  offset: number;
}

/**
 * Entries with seq > `fromSeq`, at most `limit`, the byte offset after the last slice read, and a
 * mark when the read went to the end of what was written: the next read from a later seq starts
 * there instead of at the top of the file (a follower's reads stay as small as what is new).
 */
export async function readChildLog(
  reader: LogReaderPort,
  logFile: string,
  fromSeq: number,
  limit: number,
  hint?: LogMark,
): Promise<{ entries: LogEntry[]; offset: number; mark?: LogMark }> {
  const useHint = hint !== undefined && fromSeq >= hint.seq;
  let offset = useHint ? hint.offset : 0;
  let lastSeq = useHint ? hint.seq : 0;
  const entries: LogEntry[] = [];
  for (;;) {
    const slice = await reader.read(logFile, { offset, maxBytes: 1024 * 1024 });
    for (const entry of slice.entries) {
      lastSeq = entry.seq;
      if (entry.seq <= fromSeq) continue;
      entries.push(entry);
      if (entries.length >= limit) return { entries, offset: slice.nextOffset };
    }
    if (slice.nextOffset === offset || slice.nextOffset >= slice.size)
      return { entries, offset: slice.nextOffset, mark: { seq: lastSeq, offset: slice.nextOffset } };
    offset = slice.nextOffset;
  }
}

/**
 * Waits until the log grows past `offset` or `waitMs` passes. A child's output is a file its
 * supervisor writes, not a commit of the store, so this follows the file instead of waiting in
 * waitFor.ts's loop.
 */
export function waitForLogGrowth(
  reader: LogReaderPort,
  logFile: string,
  offset: number,
  waitMs: number,
): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      follower.dispose();
      resolve();
    };
    const timer = setTimeout(finish, waitMs);
    const follower = reader.follow(logFile, (entries) => entries.length > 0 && finish(), { offset, intervalMs: 100 });
  });
}
