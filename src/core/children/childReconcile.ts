import type { ProcessExit, ProcessSupervisorPort } from '../runtime/processPort';
import type { ChildRow } from './childStore';

/** A child still starting after this long, with no process record, was lost by its server. */
const startingGraceMs = 60_000;

type EndedExit = Pick<ProcessExit, 'pid' | 'exitCode' | 'signal' | 'limit' | 'stopped' | 'startedAt' | 'endedAt' | 'durationMs'>;

/**
 * How a child another process of this machine started has ended, when it has: the exit its
 * supervisor wrote in the process record, or `lost` when the process is gone (or its pid now
 * belongs to another program) without an exit recorded (its server died first). Undefined while
 * it still runs, or when nothing can be told.
 */
export async function reconcileForeign(row: ChildRow, supervisor: ProcessSupervisorPort, childDir: string, now: number): Promise<{ exit: EndedExit; state: 'exited' | 'lost' } | undefined> {
  const record = await supervisor.readRecord(childDir, row.child_id);
  if (record?.exit) return { exit: record.exit, state: 'exited' };
  const lost = (pid: number, startedAt: string): { exit: EndedExit; state: 'lost' } => ({
    exit: { pid, exitCode: null, signal: null, limit: null, stopped: false, startedAt, endedAt: new Date(now).toISOString(), durationMs: Math.max(0, now - Date.parse(startedAt)) },
    state: 'lost',
  });
  if (!record) return now - row.created_at > startingGraceMs ? lost(row.pid ?? 0, new Date(row.created_at).toISOString()) : undefined;
  const liveness = await supervisor.checkRecord(record);
  return liveness === 'gone' || liveness === 'reused' ? lost(record.pid, record.startedAt) : undefined;
}
