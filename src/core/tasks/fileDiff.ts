import { structuredPatch } from 'diff';
import type { Task } from './taskModel';
import type { Snapshot, WorkspaceTruth } from '../ports/workspaceTruth';
import { LedgerError } from '../errors';
import { taskKey } from '../ids';

/** One line of a hunk: context, added or removed. */
export interface DiffLine {
  kind: ' ' | '+' | '-';
  text: string;
}

export interface DiffHunk {
  /** `@@ -12,7 +12,9 @@` */
  header: string;
  lines: DiffLine[];
}

/**
 * What one file of a task changed, exactly: its content in the task's start snapshot against its
 * content in the task's end snapshot (a finished task) or in a snapshot of now (a running one).
 * Both sides come from Git objects (or the checksum manifest's copies), never from a guess.
 */
export interface FileDiff {
  path: string;
  /** The old path of a rename. */
  from: string | null;
  /** What the left side is: `snapshot abc12345 (start of task-3)`. */
  before: string;
  /** What the right side is: `snapshot def67890 (end of task-3)` or `now (task-3 still runs)`. */
  after: string;
  /** Either side holds a NUL byte: no line diff. */
  binary: boolean;
  /** Hunks were cut to keep the answer small (`maxLines`). */
  truncated: boolean;
  added: number;
  removed: number;
  hunks: DiffHunk[];
}

const maxBytes = 2 * 1024 * 1024;

function isBinary(b: Buffer | null): boolean {
  return b !== null && b.subarray(0, 8000).includes(0);
}

/**
 * The diff of `path` as the task changed it. `from` names the file in the start snapshot when
 * it was renamed. Refuses a path the task did not change (the caller passes a path of the
 * task's own file list).
 */
export async function taskFileDiff(
  truth: WorkspaceTruth,
  task: Task,
  file: { path: string; from?: string | null },
  maxLines = 4000,
): Promise<FileDiff> {
  if (!task.snapshot)
    throw new LedgerError('InvalidStatus', `${taskKey(task.id)} has no start snapshot: nothing to compare`, {
      taskId: task.id,
    });
  const start = task.snapshot;
  const end: Snapshot | null = task.endSnapshotId
    ? { type: start.type, id: task.endSnapshotId, head: null, takenAt: task.completedAt ?? start.takenAt }
    : task.filesChanged
      ? null
      : (await truth.changesSince(start)).to;
  if (!end)
    throw new LedgerError('InvalidStatus', `${taskKey(task.id)} recorded no end snapshot: its diff cannot be shown`, {
      taskId: task.id,
    });
  const oldPath = file.from ?? file.path;
  const [left, right] = await Promise.all([truth.fileAt(start, oldPath), truth.fileAt(end, file.path)]);
  const label = (s: Snapshot, what: string): string =>
    `snapshot ${s.type === 'git' ? s.id.slice(0, 8) : s.id} (${what} of ${taskKey(task.id)})`;
  const base = {
    path: file.path,
    from: file.from ?? null,
    before: label(start, 'start'),
    after: task.endSnapshotId ? label(end, 'end') : `now (${taskKey(task.id)} still runs)`,
  };
  if (isBinary(left) || isBinary(right) || (left?.length ?? 0) > maxBytes || (right?.length ?? 0) > maxBytes)
    return { ...base, binary: true, truncated: false, added: 0, removed: 0, hunks: [] };
  const patch = structuredPatch(
    oldPath,
    file.path,
    left?.toString('utf8') ?? '',
    right?.toString('utf8') ?? '',
    '',
    '',
    {
      context: 3,
    },
  );
  let budget = maxLines;
  let added = 0;
  let removed = 0;
  let truncated = false;
  const hunks: DiffHunk[] = [];
  for (const h of patch.hunks) {
    const lines: DiffLine[] = [];
    for (const raw of h.lines) {
      if (raw.startsWith('\\')) continue; // "\ No newline at end of file"
      const kind = raw[0] as DiffLine['kind'];
      if (kind === '+') added++;
      else if (kind === '-') removed++;
      if (budget > 0) lines.push({ kind, text: raw.slice(1) });
      else truncated = true;
      budget--;
    }
    if (lines.length) hunks.push({ header: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, lines });
  }
  return { ...base, binary: false, truncated, added, removed, hunks };
}
