import type { AsyncSqlWriter, LedgerEngine } from '../ports/store';
import type { Clock } from '../time';
import { iso } from '../time';
import { stateError } from '../errors';
import { notFound, taskKey } from '../ids';
import { thisMachine } from '../machine';
import { appendEvent } from '../events/eventLog';
import type { TaskHold, TaskWaiting } from './taskModel';

/**
 * A person's hold on a task: stopping its agent holds it (the runner and get_my_task skip a held
 * task, so a stop sticks), and resuming lets it run again. A hold is a person's decision — the
 * editor and the CLI make it, no agent tool does. Recorded as "stopped by <person>", never as a
 * failure. The runner's own reasons for not starting a task (`waiting`) are kept beside it so
 * every face can say why an agent is idle.
 */

/** Holds `taskId` in `tx` (a task already held keeps its first hold). Returns the hold. */
export async function holdIn(tx: AsyncSqlWriter, taskId: number, by: string, now: string): Promise<TaskHold> {
  const row = await tx.get<{
    status: string;
    workflow_id: number | null;
    held_by: string | null;
    held_at: string | null;
  }>('SELECT status, workflow_id, held_by, held_at FROM tasks WHERE id = ?', [taskId]);
  if (!row) throw notFound('task', taskId);
  if (row.held_by && row.held_at) return { by: row.held_by, at: row.held_at };
  if (row.status === 'done' || row.status === 'failed' || row.status === 'cancelled')
    throw stateError(`${taskKey(taskId)} is ${row.status}: there is nothing to hold`, {
      taskId: taskKey(taskId),
      reason: 'finished',
    });
  await tx.run('UPDATE tasks SET held_by = ?, held_at = ?, waiting = NULL, updated_at = ? WHERE id = ?', [
    by,
    now,
    now,
    taskId,
  ]);
  await appendEvent(tx, { ts: now, kind: 'task.held', workflowId: row.workflow_id, taskId, payload: { by } });
  return { by, at: now };
}

/** Why an agent's queued task does not run: a person's hold, or the runner's reason. */
export interface AgentIdleReason {
  taskId: string;
  /** `held`, or the runner's reason (dependencies, conflict, coolingDown, running, clientMissing…). */
  reason: string;
  detail: string;
}

/** The person a hold or resume is recorded as: given, else this machine's user. */
export function personOf(by: string | undefined): string {
  return by?.trim() || thisMachine().user;
}

export class TaskHolds {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly clock: Clock,
  ) {}

  /** Holds a task: no runner launches it until it is resumed. */
  hold(taskId: number, by?: string): Promise<TaskHold> {
    const now = iso(this.clock.now());
    return this.engine.write((tx) => holdIn(tx, taskId, personOf(by), now));
  }

  /**
   * Why each agent's queued work does not run, by agent: its oldest in-progress task that is held
   * or that the runner holds (the agent's row in the editor says it).
   */
  async idleReasons(): Promise<Map<string, AgentIdleReason>> {
    const rows = await this.engine.read((db) =>
      db.all<{ id: number; assignee: string; held_by: string | null; waiting: string | null }>(
        `SELECT id, assignee, held_by, waiting FROM tasks
          WHERE status = 'in_progress' AND assignee IS NOT NULL AND (held_by IS NOT NULL OR waiting IS NOT NULL)
          ORDER BY id`,
      ),
    );
    const out = new Map<string, AgentIdleReason>();
    for (const r of rows) {
      if (out.has(r.assignee)) continue;
      const waiting = r.waiting ? (JSON.parse(r.waiting) as TaskWaiting) : null;
      out.set(
        r.assignee,
        r.held_by
          ? { taskId: taskKey(Number(r.id)), reason: 'held', detail: `stopped by ${r.held_by}: held until resumed` }
          : { taskId: taskKey(Number(r.id)), reason: waiting!.reason, detail: waiting!.detail },
      );
    }
    return out;
  }

  /** Lets a held task run again (InvalidStatus when it is not held). */
  async resume(taskId: number, by?: string): Promise<{ taskId: string; resumedBy: string; heldBy: string }> {
    const now = iso(this.clock.now());
    const person = personOf(by);
    return this.engine.write(async (tx) => {
      const row = await tx.get<{ workflow_id: number | null; held_by: string | null }>(
        'SELECT workflow_id, held_by FROM tasks WHERE id = ?',
        [taskId],
      );
      if (!row) throw notFound('task', taskId);
      if (!row.held_by)
        throw stateError(`${taskKey(taskId)} is not held: there is nothing to resume`, {
          taskId: taskKey(taskId),
          reason: 'notHeld',
        });
      await tx.run('UPDATE tasks SET held_by = NULL, held_at = NULL, updated_at = ? WHERE id = ?', [now, taskId]);
      await appendEvent(tx, {
        ts: now,
        kind: 'task.resumed',
        workflowId: row.workflow_id,
        taskId,
        payload: { by: person, heldBy: row.held_by },
      });
      return { taskId: taskKey(taskId), resumedBy: person, heldBy: row.held_by };
    });
  }
}

/**
 * Records the runner's reason for not starting `taskId` (null: nothing holds it any more), unless
 * it says the same as before — the runner says a reason once per change, and a write per poll
 * would wake every view.
 */
export async function recordWaiting(
  tx: AsyncSqlWriter,
  taskId: number,
  waiting: Omit<TaskWaiting, 'since'> | null,
  now: string,
): Promise<boolean> {
  const row = await tx.get<{ waiting: string | null; workflow_id: number | null }>(
    'SELECT waiting, workflow_id FROM tasks WHERE id = ?',
    [taskId],
  );
  if (!row) return false;
  const before = row.waiting ? (JSON.parse(row.waiting) as TaskWaiting) : null;
  const same =
    before === null
      ? waiting === null
      : waiting !== null &&
        before.reason === waiting.reason &&
        before.detail === waiting.detail &&
        before.blockedBy.join() === waiting.blockedBy.join();
  if (same) return false;
  const value = waiting ? JSON.stringify({ ...waiting, since: now } satisfies TaskWaiting) : null;
  await tx.run('UPDATE tasks SET waiting = ? WHERE id = ?', [value, taskId]);
  await appendEvent(tx, {
    ts: now,
    kind: 'task.waiting',
    workflowId: row.workflow_id,
    taskId,
    payload: waiting ? { reason: waiting.reason, detail: waiting.detail } : { reason: null },
  });
  return true;
}
