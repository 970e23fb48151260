/**
 * Where a task's work happens, one answer for every face: the runner launches the agent there,
 * the launch prompt and get_my_task name it, the task_start prompt shows it, and the run records
 * it. It is the project's folder inside the task's own worktree once a run prepared one (the
 * worktree is where the task's changes are measured), else the project's folder in the workspace.
 * An agent told the main checkout would commit on the user's branch, and the task would record
 * nothing of it.
 */
import * as path from 'node:path';
import type { AsyncSqlReader } from '../../ports/store';
import { worktreeFolder } from '../../workers/worktreeRepo';

/** The folder of a worktree that corresponds to the workspace (the Worktrees port's `workspaceIn`). */
export type WorkspaceIn = (worktree: string) => Promise<string>;

/** What decides the folder, read in the caller's transaction. */
export interface FolderFacts {
  /** The folder a run recorded (the session's run, else the task's open run), when one did. */
  recorded: string | null;
  /** The task's worktree as the ledger records it (workspace-relative, or absolute elsewhere). */
  worktree: string | null;
  /** The project's folder, relative to the workspace ("." for the workspace itself). */
  projectDir: string;
}

/** The facts of `taskId`'s folder: the run `executionId`'s folder, else its open run's, its worktree and project. */
export async function folderFacts(
  db: AsyncSqlReader,
  taskId: number,
  executionId: number | null = null,
): Promise<FolderFacts> {
  const [own, open, task] = await Promise.all([
    executionId === null
      ? undefined
      : db.get<{ working_directory: string | null }>('SELECT working_directory FROM execution_logs WHERE id = ?', [
          executionId,
        ]),
    db.get<{ working_directory: string | null }>(
      "SELECT working_directory FROM execution_logs WHERE task_id = ? AND status = 'running' AND working_directory IS NOT NULL ORDER BY id DESC LIMIT 1",
      [taskId],
    ),
    db.get<{ worktree: string | null; dir: string | null }>(
      'SELECT t.worktree, p.working_directory AS dir FROM tasks t LEFT JOIN projects p ON p.id = t.project_id WHERE t.id = ?',
      [taskId],
    ),
  ]);
  return {
    recorded: own?.working_directory ?? open?.working_directory ?? null,
    worktree: task?.worktree ?? null,
    projectDir: task?.dir ?? '.',
  };
}

/** The absolute folder the facts say. A worktree that cannot be resolved (removed) falls back to the workspace's folder. */
export async function workFolder(
  workspace: string,
  facts: FolderFacts,
  workspaceIn: WorkspaceIn | undefined,
): Promise<string> {
  if (facts.recorded !== null) return facts.recorded;
  if (facts.worktree !== null && workspaceIn) {
    const base = await workspaceIn(worktreeFolder(workspace, facts.worktree)).catch(() => undefined);
    if (base !== undefined) return path.resolve(base, facts.projectDir);
  }
  return path.resolve(workspace, facts.projectDir);
}
