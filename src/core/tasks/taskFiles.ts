import type { AsyncSqlReader, LedgerEngine } from '../ports/store';
import type { FileChanges, Snapshot, WorkspaceTruth } from '../ports/workspaceTruth';
import type { Task } from './taskModel';
import { getTask } from './taskRepo';
import { ledgerFolder } from '../ledgerFiles';
import { fromJson } from '../json';
import { taskKey } from '../ids';
import { SPECS_DIR } from '../pipelines/files/specsFiles';

/**
 * A task's own files: what changed in its working tree since its snapshot, minus what the ledger
 * itself wrote there. Git sees every write in the tree; the ledger's own folder (`.agent-ledger/`:
 * its store, agent files, the Memory Bank, run logs) and the pipelines' folders (`.specs/`) are
 * written by every process of the ledger — another agent's memory entry, a pipeline advancing, the
 * editor — so a path there is never a task's work by default.
 *
 * The exception is a write the task's agent made through a tool on purpose, naming the task: a
 * memory entry added with `task_id` is recorded with an event on that task carrying the entry's
 * `file`, and that path stays in the task's files. A path the ledger wrote for no task, or for
 * another task, is left out.
 *
 * A file another task working in the same tree (same worktree, same machine, overlapping in time)
 * also changed is named on both: Git cannot tell whose edit it was, so both say so
 * (`alsoChangedBy`).
 */

/** Folders of a working tree the ledger writes into, relative to the workspace folder. */
export const ledgerOwnFolders: readonly string[] = [ledgerFolder, SPECS_DIR];

/** Is this workspace-relative path one the ledger writes (under its own folder or a pipeline folder)? */
export function isLedgerOwnPath(path: string): boolean {
  return ledgerOwnFolders.some((f) => path === f || path.startsWith(`${f}/`));
}

/** `files` without the ledger's own paths, except those in `claimed` (written for the task through a tool). */
export function withoutLedgerFiles(files: FileChanges, claimed: ReadonlySet<string> = new Set()): FileChanges {
  const keep = (p: string) => !isLedgerOwnPath(p) || claimed.has(p);
  return {
    added: files.added.filter(keep),
    modified: files.modified.filter(keep),
    deleted: files.deleted.filter(keep),
    renamed: files.renamed.filter((r) => keep(r.to)),
  };
}

/** Events whose `payload.file` is a ledger file written on purpose for the event's task. */
const claimingEvents = ['memory.added'] as const;

/** The ledger files written for `taskId` through a tool that named it (see the file's comment). */
export async function claimedFiles(db: AsyncSqlReader, taskId: number): Promise<Set<string>> {
  const rows = await db.all<{ payload: string }>(
    `SELECT payload FROM events WHERE task_id = ? AND kind IN (${claimingEvents.map(() => '?').join(', ')})`,
    [taskId, ...claimingEvents],
  );
  const out = new Set<string>();
  for (const r of rows) {
    const file = fromJson<{ file?: unknown }>(r.payload, {}).file;
    if (typeof file === 'string') out.add(file);
  }
  return out;
}

/** The task's own files among `files`: the ledger's paths dropped unless written for it on purpose. */
export async function ownFiles(db: AsyncSqlReader, taskId: number, files: FileChanges): Promise<FileChanges> {
  if (!allPaths(files).some(isLedgerOwnPath)) return files;
  return withoutLedgerFiles(files, await claimedFiles(db, taskId));
}

/** A file of a task that other tasks working in the same tree changed too. */
export interface SharedFile {
  path: string;
  /** The other tasks, by key (`task-4`), in id order. */
  tasks: string[];
}

/** A task as the "also changed by" rule reads it. */
export interface TreeTask {
  id: number;
  worktree: string | null;
  machineId: string | null;
  startedAt: string | null;
  completedAt: string | null;
  /** Recorded files (at its end), or its live changes for a running task when measured; null when unknown. */
  files: FileChanges | null;
}

/** Did `a` and `b` work in the same tree at the same time? (Same worktree, same machine when both are known, overlapping runs.) */
export function sameTreeAtOnce(a: Omit<TreeTask, 'files'>, b: Omit<TreeTask, 'files'>): boolean {
  if (a.worktree !== b.worktree) return false;
  if (a.machineId !== null && b.machineId !== null && a.machineId !== b.machineId) return false;
  if (a.startedAt === null || b.startedAt === null) return false;
  const aEnd = a.completedAt ?? '\uffff';
  const bEnd = b.completedAt ?? '\uffff';
  return a.startedAt < bEnd && b.startedAt < aEnd;
}

/** The files of `task` (its `files`) that other tasks in the same tree at the same time changed too, by path. */
export function alsoChangedBy(task: TreeTask, files: FileChanges, others: readonly TreeTask[]): SharedFile[] {
  const mine = new Set(allPaths(files));
  const byPath = new Map<string, number[]>();
  for (const other of [...others].sort((x, y) => x.id - y.id)) {
    if (other.id === task.id || !other.files || !sameTreeAtOnce(task, other)) continue;
    for (const p of new Set(allPaths(withoutLedgerFiles(other.files)))) {
      if (!mine.has(p)) continue;
      const list = byPath.get(p);
      if (list) list.push(other.id);
      else byPath.set(p, [other.id]);
    }
  }
  return [...byPath]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, ids]) => ({ path, tasks: ids.map(taskKey) }));
}

interface TreeRow {
  id: number;
  worktree: string | null;
  machine_id: string | null;
  started_at: string | null;
  completed_at: string | null;
  files_changed: string | null;
  status: string;
}

/**
 * The other tasks that ran in `task`'s tree while it ran (started, with a snapshot), with their
 * recorded files; `running` lists those still running (no files recorded yet: the caller may
 * measure them).
 */
export async function tasksInSameTree(
  db: AsyncSqlReader,
  task: Omit<TreeTask, 'files'>,
): Promise<{ others: TreeTask[]; running: number[] }> {
  if (task.startedAt === null) return { others: [], running: [] };
  const rows = await db.all<TreeRow>(
    `SELECT id, worktree, machine_id, started_at, completed_at, files_changed, status FROM tasks
      WHERE id <> ? AND snapshot_id IS NOT NULL AND started_at IS NOT NULL
        AND (worktree = ? OR (worktree IS NULL AND CAST(? AS TEXT) IS NULL))
        AND (CAST(? AS TEXT) IS NULL OR started_at < ?) AND (completed_at IS NULL OR completed_at > ?)`,
    [task.id, task.worktree, task.worktree, task.completedAt, task.completedAt, task.startedAt],
  );
  const others = rows
    .map((r) => ({
      id: Number(r.id),
      worktree: r.worktree,
      machineId: r.machine_id ?? null,
      startedAt: r.started_at,
      completedAt: r.completed_at,
      files: fromJson<FileChanges | null>(r.files_changed, null),
    }))
    .filter((o) => sameTreeAtOnce(task, o));
  const running = rows
    .filter((r) => r.files_changed === null && r.status === 'in_progress')
    .map((r) => Number(r.id))
    .filter((id) => others.some((o) => o.id === id));
  return { others, running };
}

/** The "also changed by" of a task's recorded files, from the recorded files of the others (task_get, task://). */
export async function recordedSharedFiles(db: AsyncSqlReader, task: TreeTask): Promise<SharedFile[]> {
  if (!task.files || allPaths(task.files).length === 0) return [];
  const { others } = await tasksInSameTree(db, task);
  return alsoChangedBy(task, task.files, others);
}

/** Every path a change touches, renames by both names. */
function allPaths(files: FileChanges): string[] {
  return [...files.added, ...files.modified, ...files.deleted, ...files.renamed.flatMap((r) => [r.from, r.to])];
}

/**
 * A running task's own files so far (a fresh measure of its tree against its snapshot), and which
 * of them the other tasks running in the same tree changed too — those still running measured the
 * same way, the finished ones by what they recorded. The editor's task detail shows this.
 */
export async function liveTaskFiles(
  db: LedgerEngine,
  truth: WorkspaceTruth,
  task: Task,
): Promise<{ files: FileChanges; shared: SharedFile[] } | null> {
  if (!task.snapshot) return null;
  const measure = async (id: number, snapshot: Snapshot) => {
    const changes = await truth.changesSince(snapshot);
    return db.read((r) => ownFiles(r, id, changes.files));
  };
  const files = await measure(task.id, task.snapshot);
  const { others, running } = await db.read((r) => tasksInSameTree(r, task));
  for (const id of running) {
    const other = await db.read((r) => getTask(r, id));
    const index = others.findIndex((o) => o.id === id);
    if (other?.snapshot && index >= 0) others[index] = { ...others[index], files: await measure(id, other.snapshot) };
  }
  return { files, shared: alsoChangedBy({ ...task, files }, files, others) };
}
