import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { AsyncSqlReader, AsyncSqlWriter } from '../ports/store';

/** The worktree of a task, as the ledger remembers it (the folder itself is Git's). */
export interface WorktreeRecord {
  taskId: number;
  /** Workspace-relative path, e.g. `.agent-ledger/worktrees/task-5`. */
  path: string;
  branch: string;
  baseCommit: string;
  sparse: boolean;
  createdAt: string;
  lastUsedAt: string;
  removedAt: string | null;
  freedBytes: number | null;
}

interface WorktreeRow {
  task_id: number;
  path: string;
  branch: string;
  base_commit: string;
  sparse: number;
  created_at: string;
  last_used_at: string;
  removed_at: string | null;
  freed_bytes: number | null;
}

function toRecord(r: WorktreeRow): WorktreeRecord {
  return {
    taskId: r.task_id,
    path: r.path,
    branch: r.branch,
    baseCommit: r.base_commit,
    sparse: r.sparse === 1,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    removedAt: r.removed_at,
    freedBytes: r.freed_bytes,
  };
}

/** Where worktrees live unless the user says otherwise (the task-management contract's layout), relative to the workspace. */
export const defaultWorktreesFolder = '.agent-ledger/worktrees';

/**
 * The worktree of a task as the ledger records it: workspace-relative (`.agent-ledger/worktrees/task-5`)
 * inside the workspace, absolute in a folder the user chose (`--worktrees-dir`, `agentLedger.worktreesDir`).
 */
export function worktreePathOf(taskId: number, workspace: string, worktreesDir?: string): string {
  const folder = path.resolve(workspace, worktreesDir ?? defaultWorktreesFolder);
  const rel = path.relative(path.resolve(workspace), folder);
  const inside = rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  return inside
    ? [...rel.split(path.sep).filter(Boolean), `task-${taskId}`].join('/')
    : path.join(folder, `task-${taskId}`);
}

/** The absolute folder of a recorded worktree path (workspace-relative or absolute). */
export function worktreeFolder(workspace: string, recorded: string): string {
  return path.resolve(workspace, recorded);
}

/**
 * The folder of one workspace's worktrees inside a folder the user chose for every workspace
 * (e.g. `~/worktrees` in user settings): `<dir>/<folder name>-<8 hex of its path>`, so two
 * repositories never share `task-1`.
 */
export function workspaceWorktreesDir(dir: string, workspace: string): string {
  const ws = path.resolve(workspace);
  const name = path.basename(ws).replace(/[^A-Za-z0-9._-]+/g, '-') || 'workspace';
  return path.join(path.resolve(dir), `${name}-${createHash('sha1').update(ws).digest('hex').slice(0, 8)}`);
}

/** The task-management contract's branch name: the task and the session that created the worktree. */
export function branchNameOf(taskId: number, sessionId: number): string {
  return `task-${taskId}-s${sessionId}`;
}

/** Records a created worktree, or that an existing one was used again. */
export async function recordWorktreeUse(
  tx: AsyncSqlWriter,
  w: Omit<WorktreeRecord, 'createdAt' | 'removedAt' | 'freedBytes'> & { created: boolean },
): Promise<void> {
  if (w.created) {
    await tx.run(
      `INSERT INTO worktrees (task_id, path, branch, base_commit, sparse, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(task_id) DO UPDATE SET path = excluded.path, branch = excluded.branch, base_commit = excluded.base_commit, sparse = excluded.sparse,
         created_at = excluded.created_at, last_used_at = excluded.last_used_at, removed_at = NULL, freed_bytes = NULL`,
      [w.taskId, w.path, w.branch, w.baseCommit, w.sparse ? 1 : 0, w.lastUsedAt, w.lastUsedAt],
    );
  } else {
    await tx.run('UPDATE worktrees SET last_used_at = ?, removed_at = NULL WHERE task_id = ?', [
      w.lastUsedAt,
      w.taskId,
    ]);
  }
}

export async function markWorktreeRemoved(
  tx: AsyncSqlWriter,
  taskId: number,
  at: string,
  freedBytes: number,
): Promise<void> {
  await tx.run('UPDATE worktrees SET removed_at = ?, freed_bytes = ? WHERE task_id = ?', [at, freedBytes, taskId]);
}

/** Worktrees not removed yet, of one task or all, oldest use first. */
export async function activeWorktrees(db: AsyncSqlReader, taskId?: number): Promise<WorktreeRecord[]> {
  const rows =
    taskId === undefined
      ? await db.all<WorktreeRow>('SELECT * FROM worktrees WHERE removed_at IS NULL ORDER BY last_used_at')
      : await db.all<WorktreeRow>('SELECT * FROM worktrees WHERE removed_at IS NULL AND task_id = ?', [taskId]);
  return rows.map(toRecord);
}
