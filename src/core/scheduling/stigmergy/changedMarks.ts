import type { Disposable } from '../../emitter';
import { errorMessage, LedgerError } from '../../errors';
import type { ChangeWatch, Snapshot, WorkspaceTruth } from '../../ports/workspaceTruth';
import type { LedgerEngine } from '../../ports/store';
import type { Task } from '../../tasks/taskModel';
import { isLedgerOwnPath } from '../../tasks/taskFiles';
import { getTask } from '../../tasks/taskRepo';
import type { StigmergyService } from './stigmergyService';

/**
 * `changed:task-N` marks, written by the process that watches a running task (the runner for
 * the agents it launched, the MCP server that answered worker_command or get_my_task): every
 * `intervalMs`, the files the task changed since the previous look (its start snapshot the
 * first time) are marked. A file changed again is marked again; one left alone fades with the
 * field's half-life; every mark of the task goes when it ends (the task lifecycle's hook). A
 * look runs in the background (the caller never waits for it, two looks at one task never
 * overlap) and writes nothing to the repository: a Git work tree is compared with what the
 * previous look recorded in a private index (`WorkspaceTruth.watchChanges`); only where that
 * cannot tell the same paths (checksum workspaces, submodules) is a look a snapshot diff.
 * Marks are refreshed by the process that watches: when it ends (an MCP server that exits),
 * they are no longer renewed and fade with the half-life until the task ends.
 */
export interface ChangedMarksOptions {
  /** Between two looks at a running task. Default 5 s (AGENT_LEDGER_CHANGED_MARKS_MS). */
  intervalMs?: number;
}

/** Default time between two looks at a running task's files. */
export const defaultChangedMarksMs = 5000;

/** Every path a change touches (both sides of a rename). */
function changedPaths(files: {
  added: string[];
  modified: string[];
  deleted: string[];
  renamed: { from: string; to: string }[];
}): string[] {
  return [...files.added, ...files.modified, ...files.deleted, ...files.renamed.flatMap((r) => [r.from, r.to])];
}

export class ChangedMarks {
  private readonly watched = new Map<number, { timer: NodeJS.Timeout; running: boolean }>();
  /** The snapshot each task's next look compares with (when its truth has no watch). */
  private readonly last = new Map<number, Snapshot>();
  /** Each task's watch of its work tree (null: its truth has none; a look takes a snapshot). */
  private readonly watches = new Map<number, Promise<ChangeWatch | null>>();
  private readonly intervalMs: number;

  constructor(
    private readonly engine: LedgerEngine,
    private readonly stigmergy: Pick<StigmergyService, 'markTask'>,
    /** The truth a task is measured in: its worktree when it has one, else the workspace. */
    private readonly truth: (task: Task) => Promise<WorkspaceTruth>,
    options: ChangedMarksOptions = {},
  ) {
    this.intervalMs = Math.max(50, options.intervalMs ?? defaultChangedMarksMs);
  }

  /**
   * One look: marks the files `taskId` changed since the last look. 0 and the task forgotten
   * when it is not running (or has no start snapshot to compare with).
   */
  async scan(taskId: number): Promise<number> {
    const task = await this.engine.read((db) => getTask(db, taskId));
    if (!task || task.status !== 'in_progress' || task.snapshot === null) {
      this.unwatch(taskId);
      return 0;
    }
    // The ledger's own files (memory entries, pipeline documents, run logs) are nobody's edit.
    const paths = (await this.look(taskId, task, task.snapshot)).filter((p) => !isLedgerOwnPath(p));
    if (paths.length > 0) await this.stigmergy.markTask(taskId, paths, 'changed');
    return paths.length;
  }

  /** The paths `task` changed since the previous look (the first time: since its start snapshot). */
  private async look(taskId: number, task: Task, start: Snapshot): Promise<string[]> {
    let watch = this.watches.get(taskId);
    if (!watch) {
      watch = this.truth(task).then((truth) => truth.watchChanges?.(start) ?? null);
      this.watches.set(taskId, watch);
      watch.catch(() => this.watches.delete(taskId)); // tried again on the next look
    }
    const watching = await watch;
    if (watching) return watching.next();
    const truth = await this.truth(task);
    const changes = await truth.changesSince(this.last.get(taskId) ?? start);
    this.last.set(taskId, changes.to);
    return [...new Set(changedPaths(changes.files))];
  }

  /** Looks at `taskId` every interval until it ends or `unwatch`; a second call for the same task changes nothing. */
  watch(taskId: number): Disposable {
    if (!this.watched.has(taskId)) {
      const entry = { running: false, timer: setInterval(() => void this.tick(taskId), this.intervalMs) };
      entry.timer.unref(); // never keeps a process alive
      this.watched.set(taskId, entry);
    }
    return { dispose: () => this.unwatch(taskId) };
  }

  /** Stops looking at `taskId` (its run ended). Its marks stay until the task ends, fading meanwhile. */
  unwatch(taskId: number): void {
    const entry = this.watched.get(taskId);
    if (entry) clearInterval(entry.timer);
    this.watched.delete(taskId);
    this.last.delete(taskId);
    const watch = this.watches.get(taskId);
    this.watches.delete(taskId);
    void watch?.then((w) => w?.dispose()).catch(() => undefined);
  }

  /** Tasks being watched. */
  watching(): number[] {
    return [...this.watched.keys()];
  }

  dispose(): void {
    for (const id of [...this.watched.keys()]) this.unwatch(id);
  }

  private async tick(taskId: number): Promise<void> {
    const entry = this.watched.get(taskId);
    if (!entry || entry.running) return;
    entry.running = true;
    try {
      await this.scan(taskId);
    } catch (err) {
      console.error(`[agent-ledger] could not mark the files task-${taskId} changed:`, errorMessage(err));
    } finally {
      entry.running = false;
    }
  }
}

/** Milliseconds between two looks at a running task's files: `AGENT_LEDGER_CHANGED_MARKS_MS` (at least 50), else the default. */
export function changedMarksMsFromEnv(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const raw = env.AGENT_LEDGER_CHANGED_MARKS_MS?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 50)
    throw new LedgerError(
      'ConfigError',
      `AGENT_LEDGER_CHANGED_MARKS_MS=${raw}: give a whole number of milliseconds, at least 50`,
    );
  return n;
}

/**
 * get_my_task's run tracking, watched: the task's write scope and the files it changes become
 * marks while it runs — unless the run did not take its start snapshot (worker_command's process,
 * e.g. the runner, took it and watches it already).
 */
export function watchedRuns(
  tracking: { beginRun(taskId: number): Promise<boolean>; endRun(taskId: number): Promise<void> },
  scheduling: { taskWorkStarted(taskId: number): Promise<void>; changedMarks?: Pick<ChangedMarks, 'unwatch'> },
): { beginRun(taskId: number): Promise<void>; endRun(taskId: number): Promise<void> } {
  return {
    async beginRun(taskId) {
      if (await tracking.beginRun(taskId)) await scheduling.taskWorkStarted(taskId);
    },
    async endRun(taskId) {
      scheduling.changedMarks?.unwatch(taskId);
      await tracking.endRun(taskId);
    },
  };
}
