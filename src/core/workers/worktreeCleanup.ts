import type { LedgerEngine } from '../ports/store';
import type { WorktreeState, Worktrees } from '../ports/worktrees';
import { notFound, parseId } from '../ids';
import type { Clock } from '../time';
import { iso } from '../time';
import { appendEvent } from '../events/eventLog';
import { getTask } from '../tasks/taskRepo';
import { runningSessions } from '../sessions/sessionRepo';
import { activeWorktrees, markWorktreeRemoved, worktreeFolder } from './worktreeRepo';
import type { WorktreeRecord } from './worktreeRepo';
import type { CleanupResult, RemovedWorktree, WorktreeCleanupInput } from './workerContracts';

const day = 24 * 60 * 60 * 1000;

/**
 * Removes task worktrees on demand (one task) or by retention (merged into the workspace's
 * HEAD, or unused for N days). Worktrees with a running session or uncommitted changes are
 * kept unless forced: removing them would lose work.
 */
export class WorktreeCleanup {
  constructor(
    private readonly db: LedgerEngine,
    private readonly worktrees: Worktrees,
    private readonly clock: Clock,
    private readonly workspace: string,
  ) {}

  async run(input: WorktreeCleanupInput): Promise<CleanupResult> {
    const taskId = input.taskId === undefined ? undefined : parseId('task', input.taskId);
    const records = await this.db.read(async (db) => {
      if (taskId !== undefined && !(await getTask(db, taskId))) throw notFound('task', taskId);
      return activeWorktrees(db, taskId);
    });
    const result: CleanupResult = { removed: [], skipped: [], freedBytes: 0, dryRun: input.dryRun };
    for (const record of records) {
      const outcome = await this.consider(record, taskId !== undefined, input);
      if ('skip' in outcome)
        result.skipped.push({ taskId: record.taskId, worktree: record.path, reason: outcome.skip });
      else {
        result.removed.push(outcome);
        result.freedBytes += outcome.freedBytes;
      }
    }
    return result;
  }

  private async consider(
    record: WorktreeRecord,
    requested: boolean,
    input: WorktreeCleanupInput,
  ): Promise<RemovedWorktree | { skip: string }> {
    const abs = worktreeFolder(this.workspace, record.path);
    const state = await this.worktrees.inspect(abs, record.branch);
    const base = { taskId: record.taskId, worktree: record.path, branch: record.branch };
    if (!state.exists) {
      // Deleted by hand: the ledger only catches up.
      if (!input.dryRun) await this.markRemoved(record, 0, 'already gone');
      return { ...base, reason: 'already gone', freedBytes: 0, branchDeleted: false };
    }
    const unusedDays = Math.floor((this.clock.now().getTime() - Date.parse(record.lastUsedAt)) / day);
    const reason = requested
      ? 'requested'
      : state.merged
        ? 'merged'
        : unusedDays >= input.olderThanDays
          ? `unused for ${unusedDays} days`
          : null;
    if (!reason)
      return { skip: `not merged and used ${unusedDays} day(s) ago (retention: ${input.olderThanDays} days)` };
    const running = (await this.db.read((db) => runningSessions(db, record.taskId))).filter(
      (s) => s.worktree === record.path,
    );
    if (running.length && !input.force) {
      const ids = running.map((s) => s.id).join(', ');
      return {
        skip:
          running.length === 1
            ? `session ${ids} is still running there; end it with session_end, or force`
            : `sessions ${ids} are still running there; end them with session_end, or force`,
      };
    }
    if (state.dirty && !input.force)
      return { skip: 'it has uncommitted changes (commit them, or force to discard them)' };
    if (input.dryRun) return { ...base, reason, freedBytes: state.sizeBytes, branchDeleted: false };
    const removal = await this.worktrees.remove(abs, { force: input.force });
    await this.markRemoved(record, removal.freedBytes, reason);
    return { ...base, reason, freedBytes: removal.freedBytes, branchDeleted: removal.branchDeleted };
  }

  /**
   * The scheduled pass of a runner: while the task worktrees use more than `budgetBytes`, removes
   * those of landed tasks (done, their branch merged) and abandoned ones (cancelled or failed),
   * least recently used first. A worktree with a running session or uncommitted changes is never
   * removed here, nor one whose task is open, in progress, or done and not landed yet; a
   * removed worktree's branch stays unless it was merged, so no commit is lost.
   */
  async withinBudget(budgetBytes: number): Promise<CleanupResult & { usedBytes: number }> {
    const records = await this.db.read((db) => activeWorktrees(db));
    const result: CleanupResult & { usedBytes: number } = {
      removed: [],
      skipped: [],
      freedBytes: 0,
      dryRun: false,
      usedBytes: 0,
    };
    const seen: Array<{ record: WorktreeRecord; state: WorktreeState; status: string | null }> = [];
    for (const record of records) {
      const state = await this.worktrees.inspect(worktreeFolder(this.workspace, record.path), record.branch);
      const status = (await this.db.read((db) => getTask(db, record.taskId)))?.status ?? null;
      result.usedBytes += state.sizeBytes;
      seen.push({ record, state, status });
    }
    if (result.usedBytes <= budgetBytes) return result;
    for (const { record, state, status } of seen) {
      if (result.usedBytes <= budgetBytes) break;
      const landed = status === 'done' && state.merged;
      const abandoned = status === 'cancelled' || status === 'failed';
      const base = { taskId: record.taskId, worktree: record.path };
      if (!state.exists) continue;
      if (!landed && !abandoned) {
        result.skipped.push({ ...base, reason: `its task is ${status ?? 'gone'} and not landed` });
        continue;
      }
      const running = (await this.db.read((db) => runningSessions(db, record.taskId))).some(
        (s) => s.worktree === record.path,
      );
      if (running) {
        result.skipped.push({ ...base, reason: 'a session is still running there' });
        continue;
      }
      if (state.dirty) {
        result.skipped.push({ ...base, reason: 'it has uncommitted changes' });
        continue;
      }
      const reason = `${landed ? 'landed' : `task ${status}`}; over the worktrees' disk budget`;
      const removal = await this.worktrees.remove(worktreeFolder(this.workspace, record.path), { force: false });
      await this.markRemoved(record, removal.freedBytes, reason);
      result.removed.push({ ...base, branch: record.branch, reason, ...removal });
      result.freedBytes += removal.freedBytes;
      result.usedBytes -= state.sizeBytes;
    }
    return result;
  }

  private async markRemoved(record: WorktreeRecord, freedBytes: number, reason: string): Promise<void> {
    const now = iso(this.clock.now());
    await this.db.write(async (tx) => {
      await markWorktreeRemoved(tx, record.taskId, now, freedBytes);
      await appendEvent(tx, {
        ts: now,
        kind: 'worktree.removed',
        taskId: record.taskId,
        entity: 'worktree',
        entityId: record.path,
        payload: { reason, freedBytes, branch: record.branch },
      });
    });
  }
}
