/**
 * The worker_command session a runner opens for a run (the task's worktree, its tracked start)
 * lives exactly as long as the run. It is tied to the run when the run is claimed — its session
 * group is the run's execution id (`exec-7`), which `session_list` shows — and ended when the run
 * ends, however it ends: the agent exited, crashed, hit a limit, was stopped, never started, or
 * its runner died and a later one closed it. Left running, it would keep its task counted as
 * worked on, and that task's write scope would hold every overlapping task back.
 *
 * Ending it records the run's exit on the session and says why; it does not settle the task
 * (report_completed does, and a crashed run's task stays in progress for the next launch).
 */
import type { AsyncSqlWriter } from '../../ports/store';
import { appendEvent } from '../../events/eventLog';
import type { Session, SessionError } from '../../sessions/sessionRepo';
import { endSessionRow, getSession, toSession } from '../../sessions/sessionRepo';
import type { SessionRow } from '../../sessions/sessionRepo';
import { secondsBetween } from '../../time';
import type { ProcessExit } from '../../ports/processes';
import { endReason } from './runEnds';

/** How the run ended, for its session. */
export interface RunSessionEnd {
  ok: boolean;
  /** Why the session ends, in words (the session's error when the run failed, and its event's `reason`). */
  reason: string;
  exit?: ProcessExit;
}

/**
 * The session group of a worktree session a runner prepared and has not tied to a run yet. The
 * worktree is made before the run is claimed (the claim needs to know the task may start): a
 * runner that dies, or a claim that fails, between the two leaves such a session. The claim of
 * the next run of that task and agent ends it (`endUntiedSessions`, in the claim's transaction);
 * a failed claim ends its own at once (`endUnclaimedSession`). The worktree stays: the next run
 * works in it.
 */
export const untiedRunGroup = 'run-untied';

/** Ends the sessions a runner prepared for this task and agent and never tied to a run (all but `keep`). */
export async function endUntiedSessions(
  tx: AsyncSqlWriter,
  taskId: number,
  agent: string,
  keep: number | undefined,
  now: Date,
): Promise<void> {
  const rows = await tx.all<SessionRow>(
    "SELECT * FROM sessions WHERE task_id = ? AND agent = ? AND session_group_id = ? AND origin = 'worker_command' AND status = 'running' ORDER BY id",
    [taskId, agent, untiedRunGroup],
  );
  for (const row of rows)
    if (Number(row.id) !== keep)
      await endOne(
        tx,
        toSession(row),
        null,
        { ok: false, reason: 'its runner stopped between preparing the worktree and claiming the run' },
        now,
      );
}

/** Ties the session prepared for a run to the run (its session group is the execution id). */
export async function tieRunSession(tx: AsyncSqlWriter, sessionId: number, executionId: string): Promise<void> {
  await tx.run("UPDATE sessions SET session_group_id = ? WHERE id = ? AND origin = 'worker_command'", [
    executionId,
    sessionId,
  ]);
}

/** Ends the running worker_command sessions tied to a run. */
export async function endRunSessions(
  tx: AsyncSqlWriter,
  executionId: string,
  end: RunSessionEnd,
  now: Date,
): Promise<void> {
  const rows = await tx.all<SessionRow>(
    "SELECT * FROM sessions WHERE session_group_id = ? AND origin = 'worker_command' AND status = 'running' ORDER BY id",
    [executionId],
  );
  for (const row of rows) await endOne(tx, toSession(row), executionId, end, now);
}

/** Ends one session prepared for a run that was never claimed (another runner holds the pair). */
export async function endUnclaimedSession(
  tx: AsyncSqlWriter,
  sessionId: number,
  reason: string,
  now: Date,
): Promise<void> {
  const session = await getSession(tx, sessionId);
  if (session?.status === 'running' && session.origin === 'worker_command')
    await endOne(tx, session, null, { ok: false, reason }, now);
}

/** The reason of a run that ended with a process exit. */
export function runEndReason(exit: ProcessExit): string {
  return `its run ${endReason(exit)}`;
}

async function endOne(
  tx: AsyncSqlWriter,
  session: Session,
  executionId: string | null,
  end: RunSessionEnd,
  now: Date,
): Promise<void> {
  const endedAt = now.toISOString();
  const exit = end.exit;
  await endSessionRow(tx, session.id, {
    status: end.ok ? 'completed' : 'failed',
    exitCode: exit?.exitCode ?? null,
    signal: exit?.signal ?? null,
    dodResult: null,
    artifacts: [],
    error: end.ok ? null : { type: errorType(exit), message: end.reason },
    endedAt,
    durationSeconds: secondsBetween(session.startedAt, now),
  });
  await appendEvent(tx, {
    ts: endedAt,
    kind: 'session.ended',
    taskId: session.taskId,
    entity: 'session',
    entityId: String(session.id),
    payload: {
      agent: session.agent,
      status: end.ok ? 'completed' : 'failed',
      exitCode: exit?.exitCode ?? null,
      reason: end.reason,
      executionId,
    },
  });
}

function errorType(exit: ProcessExit | undefined): SessionError['type'] {
  if (!exit) return 'unknown';
  if (exit.limit === 'wallClock' || exit.limit === 'idle') return 'timeout';
  if (exit.signal) return 'signal';
  return exit.exitCode !== null && exit.exitCode !== 0 ? 'crash' : 'unknown';
}
