import type { Disposable } from '../emitter';
import { errorMessage } from '../errors';
import { taskKey } from '../ids';
import { isFinished } from './taskModel';
import type { TaskStatus } from './taskModel';

/** What must happen when a task ends, whoever ended it (its marks leave the field, its awarded calls complete…). */
export type TaskEndedReaction = (taskId: number) => Promise<void>;

/**
 * The task's lifecycle as the rest of core reacts to it. Every service that can end a task (done,
 * failed, cancelled) — task_update and the Board's Cancel, complete_task, update_task_status,
 * report_completed, session_end, whichever face called — says so here once its write is
 * committed, and the reactions the composition root subscribed run before the call returns. So a
 * new way to end a task gets every reaction, and a new reaction every way.
 */
export class TaskLifecycle {
  private readonly reactions = new Set<TaskEndedReaction>();

  /** Adds a reaction to every task that ends from now on. */
  onEnded(reaction: TaskEndedReaction): Disposable {
    this.reactions.add(reaction);
    return { dispose: () => this.reactions.delete(reaction) };
  }

  /**
   * The task moved from `previous` to `status`: when that ends it, runs every reaction. Best
   * effort — the change is committed already: a failing reaction is reported, never thrown.
   */
  async changed(taskId: number, previous: TaskStatus | null, status: TaskStatus): Promise<void> {
    if (!isFinished(status) || (previous !== null && isFinished(previous))) return;
    for (const reaction of [...this.reactions]) {
      await reaction(taskId).catch((err: unknown) =>
        console.error(`[agent-ledger] after ${taskKey(taskId)} ended: ${errorMessage(err)}`),
      );
    }
  }
}
