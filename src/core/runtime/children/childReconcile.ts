import type { ProcessExit, ProcessSupervisorPort } from '../../ports/processes';
import type { ChildRow } from './childStore';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A child still starting after this long, with no process record, was lost by its server. */
const startingGraceMs = 60_000;

export type EndedExit = Pick<
  ProcessExit,
  'pid' | 'exitCode' | 'signal' | 'limit' | 'stopped' | 'startedAt' | 'endedAt' | 'durationMs'
>;

/**
 * How a child another process of this machine started has ended, when it has: the exit its
 * supervisor wrote in the process record, or `lost` when the process is gone (or its pid now
 * belongs to another program) without an exit recorded (its server died first). Undefined while
 * it still runs, or when nothing can be told.
 */
export async function reconcileForeign(
  row: ChildRow,
  supervisor: ProcessSupervisorPort,
  childDir: string,
  now: number,
): Promise<{ exit: EndedExit; state: 'exited' | 'lost' } | undefined> {
  const record = await supervisor.readRecord(childDir, row.child_id);
  if (record?.exit) return { exit: record.exit, state: 'exited' };
  const lost = (pid: number, startedAt: string): { exit: EndedExit; state: 'lost' } => ({
    exit: {
      pid,
      exitCode: null,
      signal: null,
      limit: null,
      stopped: false,
      startedAt,
      endedAt: new Date(now).toISOString(),
      durationMs: Math.max(0, now - Date.parse(startedAt)),
    },
    state: 'lost',
  });
  if (!record)
    return now - row.created_at > startingGraceMs
      ? lost(row.pid ?? 0, new Date(row.created_at).toISOString())
      : undefined;
  const liveness = await supervisor.checkRecord(record);
  return liveness === 'gone' || liveness === 'reused' ? lost(record.pid, record.startedAt) : undefined;
}

/**
 * Stops a child another process of this machine started, after the supervisor checked its pid is
 * still that process, then waits briefly for its owner to record the exit in the process record.
 * Resolves with the exit to record (the owner's, or one made here when its owner is gone).
 */
export async function stopForeignChild(
  row: ChildRow,
  supervisor: ProcessSupervisorPort,
  childDir: string,
  graceMs: number,
  now: () => number,
): Promise<EndedExit> {
  const record = await supervisor.readRecord(childDir, row.child_id);
  if (record) await supervisor.stopRecorded(record, { graceMs });
  const deadline = Date.now() + graceMs + 3000;
  let exit = record?.exit;
  while (!exit && record && Date.now() < deadline) {
    await sleep(100);
    exit = (await supervisor.readRecord(childDir, row.child_id))?.exit;
  }
  if (exit) return { ...exit, stopped: true };
  const at = now();
  const startedAt = new Date(row.started_at ?? at).toISOString();
  return {
    pid: row.pid ?? 0,
    exitCode: null,
    signal: null,
    limit: null,
    stopped: true,
    startedAt,
    endedAt: new Date(at).toISOString(),
    durationMs: Math.max(0, at - Date.parse(startedAt)),
  };
}
