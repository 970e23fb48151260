/**
 * v5: where a task's files were measured. `files_changed` paths are relative to the workspace
 * folder, which may be a subfolder of the repository (a package of a monorepo) or of a worker's
 * worktree; the result states the repository root and the folder inside it.
 */
export const v5TaskLocation: readonly string[] = [
  'ALTER TABLE tasks ADD COLUMN repository_root TEXT',
  'ALTER TABLE tasks ADD COLUMN workspace_path TEXT',
];
