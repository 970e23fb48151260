import type { WorkspaceTruth } from './workspaceTruth';
/**
 * The worktrees port: one Git worktree per task, as `core` needs it from `git/`.
 */
/** What an agent may see in its worktree: globs applied with Git's sparse checkout. */
export interface CheckoutScope {
  /** Globs of files checked out (`["**\/*"]` = everything). */
  read: string[];
  /** Globs of files never checked out, even when `read` matches them. */
  exclude: string[];
}

export interface PreparedWorktree {
  /** Absolute path of the worktree. */
  path: string;
  /** Absolute folder inside it that corresponds to the workspace (the worktree itself unless the workspace is a subfolder of the repository). */
  cwd: string;
  /** The branch checked out in it. */
  branch: string;
  /** The commit it was created from (HEAD of the workspace); for a reused worktree, its current HEAD. */
  base: string;
  /** False when an existing worktree was reused as it was. */
  created: boolean;
  /** True when a sparse checkout limits what is checked out. */
  sparse: boolean;
  /**
   * Of a new worktree: the ignored files of the main checkout copied in (`.worktreeinclude`) and
   * the folders linked (`link:` of `.agent-ledger/workspace.yaml`), repository-relative.
   */
  brought?: { copied: string[]; linked: string[] };
  /** Of a new worktree: the branch checked out in the workspace it was made from (where it lands), null when detached. */
  baseBranch?: string | null;
}

export interface WorktreeState {
  exists: boolean;
  branch: string | null;
  /** Uncommitted changes (tracked or untracked, not ignored). */
  dirty: boolean;
  /** The branch's commits are all reachable from the workspace's HEAD. */
  merged: boolean;
  /** Disk used by the worktree's files (allocated blocks). */
  sizeBytes: number;
}

export interface WorktreeRemoval {
  freedBytes: number;
  /** The branch was merged and deleted with the worktree. */
  branchDeleted: boolean;
}

/**
 * Git worktrees of the workspace's repository. Paths are absolute and must lie under the
 * workspace's `.agent-ledger/worktrees/`; implementations refuse any other.
 */
export interface Worktrees {
  /**
   * Creates the worktree on a new `branch` from HEAD with `scope` applied, or reuses the one at
   * `path` on its own branch. A reused one gets `scope` when it differs, unless `keepScope`
   * (another session works there: its checkout must not change under it).
   */
  prepare(
    path: string,
    branch: string,
    scope: CheckoutScope,
    options: {
      keepScope: boolean;
      /** Workspace-relative folders of the main checkout to link into a new worktree (e.g. `node_modules`). */
      link?: readonly string[];
    },
  ): Promise<PreparedWorktree>;
  inspect(path: string, branch: string | null): Promise<WorktreeState>;
  /** Removes the worktree (refusing uncommitted changes unless `force`) and deletes its branch when merged. */
  remove(path: string, options: { force: boolean }): Promise<WorktreeRemoval>;
  /** The workspace truth of a worktree, for snapshots and diffs taken there. */
  truth(path: string): Promise<WorkspaceTruth>;
  /**
   * The folder of a worktree that corresponds to the workspace: the worktree itself, or the same
   * subfolder when the workspace is a folder inside its repository (a package of a monorepo).
   */
  workspaceIn(path: string): Promise<string>;
}
