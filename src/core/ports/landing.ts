/**
 * The landing port: moving a task's branch onto its base branch, as `core` needs it from `git/`
 * (src/git/landing.ts), and opening a pull request instead (src/git/pullRequest.ts).
 */

export interface LandRequest {
  /** The task's branch (`task-5-s12`). */
  branch: string;
  /** The branch it lands on (`main`). */
  onto: string;
  /** Replay the branch's commits on `onto` instead of a merge commit (when it cannot fast-forward). */
  rebase: boolean;
  /** The message of a merge commit. */
  message: string;
}

export interface Landed {
  /** `already`: `onto` holds the branch already; nothing moved. */
  method: 'fast-forward' | 'merge' | 'rebase' | 'already';
  /** `onto`'s commit before and after. */
  from: string;
  to: string;
  /** Files the landing changed on `onto`, repository-relative. */
  files: string[];
  /** Commits of the branch that were not on `onto`. */
  commits: number;
  /** The checkout whose files moved with `onto` (where it is checked out), or null when only its ref moved. */
  checkout: string | null;
}

export interface Landing {
  currentBranch(): Promise<string | null>;
  uncommittedFiles(dir: string): Promise<string[]>;
  tipOf(branch: string): Promise<string | null>;
  land(request: LandRequest): Promise<Landed>;
  /** Deletes the task's branch once landed (a rebased one first points at what landed); false when Git keeps it. */
  retireBranch(branch: string, landedAt: string | null): Promise<boolean>;
}

export interface PullRequestRequest {
  branch: string;
  onto: string;
  title: string;
  body: string;
  /** The remote to push to (default `origin`). */
  remote?: string;
}

export interface PullRequests {
  /** Pushes the branch and opens a pull request with the GitHub CLI; its address. */
  open(request: PullRequestRequest): Promise<{ url: string }>;
}
