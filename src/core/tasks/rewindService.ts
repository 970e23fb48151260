import type { AsyncSqlReader, LedgerEngine } from '../ports/store';
import type { Snapshot, WorkspaceTruth } from '../ports/workspaceTruth';
import type { Task } from './taskModel';
import { ownFiles } from './taskFiles';
import { LedgerError, stateError } from '../errors';
import { notFound, parseId, taskKey } from '../ids';
import { appendEvent } from '../events/eventLog';
import { fromJson } from '../json';
import type { Clock } from '../time';
import { iso } from '../time';
import { getTask } from './taskRepo';
import { thisMachine } from '../machine';

/** What a rewind would put back, shown to the person before anything is touched. */
export interface RewindPlan {
  taskId: number;
  /** Repository-relative paths, sorted: everything the task added, modified, deleted or renamed. */
  paths: string[];
  /** `recorded`: the files complete_task recorded; `live`: the task still runs, measured now. */
  source: 'recorded' | 'live';
}

/** The last rewind of a task, from the events log (so it survives a window reload). */
export interface RewindRecord {
  /** The `task.rewound` event's sequence number. */
  seq: number;
  at: string;
  paths: string[];
  /** The present as it was just before the rewind: what Undo puts back. */
  backup: Snapshot;
  /** False once it has been undone. */
  undoable: boolean;
}

export interface RewindResult {
  taskId: string;
  paths: string[];
  backupSnapshotId: string;
}

/**
 * Rewind (DESIGN.md): puts the files a task changed back as they were at its snapshot, after
 * snapshotting the present so the rewind itself can be undone. Only working files change; HEAD,
 * the index and branches stay, so `git status` shows the rewind as ordinary edits.
 */
export class RewindService {
  constructor(
    private readonly db: LedgerEngine,
    private readonly truth: () => Promise<WorkspaceTruth>,
    private readonly clock: Clock,
  ) {}

  async plan(ref: string | number): Promise<RewindPlan> {
    const task = await this.rewindable(ref);
    if (task.filesChanged) return { taskId: task.id, paths: pathsOf(task.filesChanged), source: 'recorded' };
    const truth = await this.gitTruth();
    const changes = await truth.changesSince(task.snapshot!);
    // The ledger's own files are never put back: other processes wrote them (taskFiles.ts).
    const files = await this.db.read((db) => ownFiles(db, task.id, changes.files));
    return { taskId: task.id, paths: pathsOf(files), source: 'live' };
  }

  /** Rewinds `paths` (those of {@link plan}, as confirmed) and records how to undo it. */
  async rewind(ref: string | number, paths: readonly string[]): Promise<RewindResult> {
    const task = await this.rewindable(ref);
    if (paths.length === 0)
      throw new LedgerError('ValidationError', `${taskKey(task.id)} changed no files: there is nothing to rewind`);
    const truth = await this.gitTruth();
    const backup = await truth.snapshot(`before rewinding ${taskKey(task.id)}`);
    await truth.keep(backup, `${taskKey(task.id)}-rewind-${Date.parse(backup.takenAt)}`).catch(() => undefined);
    await truth.restore(task.snapshot!, paths);
    const now = iso(this.clock.now());
    await this.db.write(async (tx) => {
      await appendEvent(tx, {
        ts: now,
        kind: 'task.rewound',
        workflowId: task.workflowId,
        taskId: task.id,
        payload: { paths: [...paths], backup },
      });
    });
    return { taskId: taskKey(task.id), paths: [...paths], backupSnapshotId: backup.id };
  }

  lastRewind(ref: string | number): Promise<RewindRecord | null> {
    const taskId = parseId('task', ref);
    return this.db.read((db) => lastRewind(db, taskId));
  }

  /** Puts back what the last rewind of the task overwrote. */
  async undo(ref: string | number): Promise<RewindResult> {
    const taskId = parseId('task', ref);
    const last = await this.lastRewind(taskId);
    if (!last?.undoable) throw stateError(`${taskKey(taskId)} has no rewind to undo`, { taskId: taskKey(taskId) });
    const truth = await this.gitTruth();
    await truth.restore(last.backup, last.paths);
    const now = iso(this.clock.now());
    await this.db.write(async (tx) => {
      const task = await getTask(tx, taskId);
      await appendEvent(tx, {
        ts: now,
        kind: 'task.rewind_undone',
        workflowId: task?.workflowId ?? null,
        taskId,
        payload: { rewindSeq: last.seq, paths: last.paths },
      });
    });
    return { taskId: taskKey(taskId), paths: last.paths, backupSnapshotId: last.backup.id };
  }

  private async rewindable(ref: string | number): Promise<Task> {
    const taskId = parseId('task', ref);
    const task = await this.db.read((db) => getTask(db, taskId));
    if (!task) throw notFound('task', taskId);
    if (!task.snapshot)
      throw stateError(`${taskKey(taskId)} was never started, so it has no snapshot to rewind to`, {
        taskId: taskKey(taskId),
      });
    // Git truth is local: the snapshot lives in the repository of the machine the task started on.
    const here = thisMachine().id;
    if (task.machineId && task.machineId !== here) {
      throw stateError(
        `${taskKey(taskId)} started on the machine "${task.machineId}"${task.osUser ? ` (user ${task.osUser})` : ''}: its snapshot lives in that machine's repository, not on "${here}"; rewind it there`,
        {
          taskId: taskKey(taskId),
          reason: 'snapshotOnAnotherMachine',
          machineId: task.machineId,
          osUser: task.osUser,
          thisMachine: here,
        },
      );
    }
    if (task.snapshot.type !== 'git')
      throw new LedgerError(
        'GitError',
        'Rewind needs a Git repository: this workspace is tracked by checksums, which record what changed but not the content to put back.',
      );
    // Its files live in a worktree of their own; putting them back in the workspace would be wrong.
    if (task.worktree)
      throw stateError(
        `${taskKey(taskId)} ran in the worktree ${task.worktree}: discard or reset that worktree's branch instead`,
        { taskId: taskKey(taskId) },
      );
    return task;
  }

  private async gitTruth(): Promise<WorkspaceTruth> {
    const truth = await this.truth();
    if (truth.kind !== 'git')
      throw new LedgerError('GitError', 'Rewind needs a Git repository: this workspace is tracked by checksums.');
    return truth;
  }
}

function pathsOf(files: NonNullable<Task['filesChanged']>): string[] {
  const all = [...files.added, ...files.modified, ...files.deleted, ...files.renamed.flatMap((r) => [r.from, r.to])];
  return [...new Set(all)].sort();
}

interface RewindEventRow {
  seq: number;
  ts: string;
  kind: string;
  payload: string;
}

async function lastRewind(db: AsyncSqlReader, taskId: number): Promise<RewindRecord | null> {
  const rows = await db.all<RewindEventRow>(
    "SELECT seq, ts, kind, payload FROM events WHERE task_id = ? AND kind IN ('task.rewound', 'task.rewind_undone') ORDER BY seq DESC LIMIT 2",
    [taskId],
  );
  const latest = rows[0];
  if (!latest) return null;
  const rewound = latest.kind === 'task.rewound' ? latest : rows.find((r) => r.kind === 'task.rewound');
  if (!rewound) return null;
  const payload = fromJson<{ paths?: string[]; backup?: Snapshot }>(rewound.payload, {});
  if (!payload.backup || !payload.paths) return null;
  return {
    seq: rewound.seq,
    at: rewound.ts,
    paths: payload.paths,
    backup: payload.backup,
    undoable: latest.kind === 'task.rewound',
  };
}
