/**
 * One Git worktree per task under `<workspace>/.agent-ledger/worktrees/` (the task-management contract's workers):
 * created from the workspace's HEAD on its own branch, limited to an agent's read scope with a
 * non-cone sparse checkout, measured and removed on request.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type {
  CheckoutScope,
  PreparedWorktree,
  WorktreeRemoval,
  WorktreeState,
  Worktrees,
} from '../core/ports/worktrees';
import type { WorkspaceTruth } from '../core/ports/workspaceTruth';
import { LedgerError } from '../core/errors';
import { confinedPath, mkdirConfined } from '../core/files/confinedPath';
import { GitError } from './errors';
import { GitRepo, runGit } from './gitRepo';
import { GitWorkspaceTruth } from './gitWorkspaceTruth';
import { withFolderLock } from './folderLock';
import { diskUsage, listWorktrees, sparsePatterns } from './worktreeParts';
import { bringIgnoredFiles } from './worktreeInclude';

const folderName = /^task-\d+$/;
const branchName = /^task-\d+-s\d+$/;

export class GitWorktrees implements Worktrees {
  private repoPromise: Promise<GitRepo> | undefined;

  /**
   * @param workspace the workspace folder (its repository's HEAD is the base of new worktrees).
   * @param root the only folder worktrees may live in: `<workspace>/.agent-ledger/worktrees`, or
   *   the folder the user chose (`explicit`).
   * @param options.explicit the user chose `root` (a setting or a flag): it may lie outside the
   *   workspace. Otherwise `root` must resolve inside it — a `.agent-ledger/worktrees` that arrived
   *   with the repository as a symbolic link is refused, never followed.
   */
  constructor(
    private readonly workspace: string,
    private readonly root: string,
    private readonly options: { explicit: boolean } = { explicit: false },
  ) {}

  async prepare(
    target: string,
    branch: string,
    scope: CheckoutScope,
    options: { keepScope: boolean; link?: readonly string[] },
  ): Promise<PreparedWorktree> {
    const dir = this.confine(target);
    if (!branchName.test(branch))
      throw new GitError('invalidName', `Worktree branch "${branch}" must look like task-<id>-s<sessionId>.`);
    const repo = await this.repo();
    if (this.options.explicit) fs.mkdirSync(this.root, { recursive: true });
    else mkdirConfined(this.workspace, this.root);
    // Two sessions of one task may ask at once: one creates, the other then reuses.
    return withFolderLock(`${dir}.lock`, async () => {
      const known = (await listWorktrees(repo)).find((w) => samePath(w.path, dir));
      if (known && fs.existsSync(dir)) {
        const sparse = options.keepScope ? await isSparse(dir) : await applyScope(repo, dir, scope);
        const current = known.branch ?? branch;
        return {
          path: dir,
          cwd: path.join(dir, repo.prefix),
          branch: current,
          base: known.head ?? '',
          created: false,
          sparse,
        };
      }
      await repo.run(['worktree', 'prune']);
      clearStrayFolder(dir, this.workspace);
      const base = await repo.head();
      if (!base)
        throw new GitError(
          'unsupported',
          'A worktree needs a commit to branch from, and this repository has none yet: make a first commit.',
        );
      const patterns = sparsePatterns(scope, repo.prefix);
      // Hooks off: a user's post-checkout hook (npm install…) must not run for every worker.
      await repo.run([
        ...repo.noHooks(),
        'worktree',
        'add',
        '--quiet',
        ...(patterns ? ['--no-checkout'] : []),
        '-b',
        branch,
        dir,
        base,
      ]);
      if (patterns) {
        // Patterns through stdin: a glob starting with "-" must never be read as an option.
        await runGit(dir, [...repo.noHooks(), 'sparse-checkout', 'set', '--no-cone', '--stdin'], {
          input: `${patterns.join('\n')}\n`,
        });
        await runGit(dir, [...repo.noHooks(), 'checkout', '--quiet']);
      }
      const brought = await bringIgnoredFiles(repo, dir, this.workspace, options.link ?? []);
      const baseBranch =
        (await repo.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], { okExitCodes: [1] })).stdout
          .toString('utf8')
          .trim() || null;
      return {
        baseBranch,
        path: dir,
        cwd: path.join(dir, repo.prefix),
        branch,
        base,
        created: true,
        sparse: patterns !== null,
        brought,
      };
    });
  }

  async inspect(target: string, branch: string | null): Promise<WorktreeState> {
    const dir = this.confine(target);
    if (!fs.existsSync(dir)) return { exists: false, branch, dirty: false, merged: false, sizeBytes: 0 };
    const repo = await this.repo();
    const status = await runGit(dir, ['status', '--porcelain', '--untracked-files=normal']);
    return {
      exists: true,
      branch,
      dirty: status.stdout.length > 0,
      merged: branch ? await isMerged(repo, branch) : false,
      sizeBytes: diskUsage(dir),
    };
  }

  async remove(target: string, options: { force: boolean }): Promise<WorktreeRemoval> {
    const dir = this.confine(target);
    const repo = await this.repo();
    return withFolderLock(`${dir}.lock`, async () => {
      const known = (await listWorktrees(repo)).find((w) => samePath(w.path, dir));
      const freedBytes = fs.existsSync(dir) ? diskUsage(dir) : 0;
      if (known) {
        await repo.run([...repo.noHooks(), 'worktree', 'remove', ...(options.force ? ['--force'] : []), dir]);
      } else {
        // Not (or no longer) registered with Git: only a folder of ours is left.
        fs.rmSync(dir, { recursive: true, force: true });
        await repo.run(['worktree', 'prune']);
      }
      let branchDeleted = false;
      if (known?.branch && (await isMerged(repo, known.branch))) {
        branchDeleted = await repo.run(['branch', '-d', known.branch]).then(
          () => true,
          () => false,
        );
      }
      return { freedBytes, branchDeleted };
    });
  }

  async truth(target: string): Promise<WorkspaceTruth> {
    const dir = this.confine(target);
    if (!fs.existsSync(dir)) {
      const rel = path.relative(this.workspace, dir).split(path.sep).join('/');
      throw new LedgerError(
        'InvalidStatus',
        `the worktree ${rel} no longer exists, so its changes cannot be measured; it was removed by a cleanup or by hand`,
        { worktree: rel },
      );
    }
    // Measured like the workspace: a subfolder workspace sees the same folder of its worktree.
    const [worktree, repo] = await Promise.all([GitRepo.open(dir), this.repo()]);
    return new GitWorkspaceTruth(worktree, repo.prefix);
  }

  async workspaceIn(target: string): Promise<string> {
    return path.join(this.confine(target), (await this.repo()).prefix);
  }

  private repo(): Promise<GitRepo> {
    this.repoPromise ??= GitRepo.open(this.workspace);
    this.repoPromise.catch(() => (this.repoPromise = undefined));
    return this.repoPromise;
  }

  /**
   * Paths come from the ledger, never from a tool argument; still, nothing outside `root` is
   * touched, and `root` (unless the user chose it) stays inside the workspace by its real path.
   */
  private confine(target: string): string {
    const dir = path.resolve(target);
    if (path.dirname(dir) !== path.resolve(this.root) || !folderName.test(path.basename(dir))) {
      throw new GitError('invalidPath', `${target} is not a task worktree folder under ${this.root}.`);
    }
    if (!this.options.explicit) confinedPath(this.workspace, dir);
    return dir;
  }
}

function samePath(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return real(a) === real(b);
}

/** A folder left where a worktree should be: an empty one goes, anything else is the user's to move. */
function clearStrayFolder(dir: string, workspace: string): void {
  if (!fs.existsSync(dir)) return;
  if (fs.readdirSync(dir).length === 0) {
    fs.rmdirSync(dir);
    return;
  }
  const rel = path.relative(workspace, dir).split(path.sep).join('/');
  throw new GitError(
    'commandFailed',
    `${rel} exists but is not a Git worktree of this repository; move it away or delete it, then try again.`,
  );
}

async function isSparse(dir: string): Promise<boolean> {
  const { stdout } = await runGit(dir, ['config', '--get', 'core.sparseCheckout'], { okExitCodes: [1] });
  return stdout.toString().trim() === 'true';
}

/** Re-applies a scope to a reused worktree when it differs from the one checked out. */
async function applyScope(repo: GitRepo, dir: string, scope: CheckoutScope): Promise<boolean> {
  const wanted = sparsePatterns(scope, repo.prefix);
  const sparse = await isSparse(dir);
  if (!wanted) {
    if (sparse) await runGit(dir, [...repo.noHooks(), 'sparse-checkout', 'disable']);
    return false;
  }
  const current = sparse
    ? (await runGit(dir, ['sparse-checkout', 'list'])).stdout.toString().split('\n').filter(Boolean)
    : [];
  if (current.join('\n') !== wanted.join('\n')) {
    await runGit(dir, [...repo.noHooks(), 'sparse-checkout', 'set', '--no-cone', '--stdin'], {
      input: `${wanted.join('\n')}\n`,
    });
  }
  return true;
}

/** Every commit of `branch` is reachable from the workspace's HEAD. */
async function isMerged(repo: GitRepo, branch: string): Promise<boolean> {
  if (!branchName.test(branch)) return false;
  try {
    const { exitCode } = await repo.run(['merge-base', '--is-ancestor', `refs/heads/${branch}`, 'HEAD'], {
      okExitCodes: [1],
    });
    return exitCode === 0;
  } catch {
    return false; // branch deleted or HEAD unborn
  }
}

/**
 * Git's folders of a checkout, absolute: the repository's common folder (objects, refs) and the
 * checkout's own (its index and HEAD: `.git/worktrees/<name>` in a linked worktree). A commit
 * writes to both: a sandbox that should let an agent commit makes them writable.
 */
export async function gitDirsOf(dir: string): Promise<{ common: string; own: string }> {
  const { stdout } = await runGit(dir, ['rev-parse', '--path-format=absolute', '--git-common-dir', '--git-dir']);
  const [common, own] = stdout.toString('utf8').trim().split('\n');
  return { common, own: own ?? common };
}

/**
 * Commits every uncommitted change of a task's worktree on its branch (what its agent left when
 * its run ended), hooks off, as `author` with the ledger as committer: the branch is then clean
 * and can land. Nothing to commit: null. The files are exactly those `git status` lists there,
 * which are the task's alone (the worktree is the task's).
 */
export async function commitLeftovers(
  dir: string,
  message: string,
  author: { name: string; email: string },
): Promise<{ commit: string; files: string[] } | null> {
  const status = await runGit(dir, ['status', '--porcelain', '-z', '--untracked-files=all']);
  if (status.stdout.length === 0) return null;
  const repo = await GitRepo.open(dir);
  const env = {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: 'Agent Ledger',
    GIT_COMMITTER_EMAIL: 'agent-ledger@localhost',
  };
  await runGit(dir, [...repo.noHooks(), 'add', '--all']);
  const files = (await runGit(dir, ['diff', '--cached', '--name-only', '-z'])).stdout
    .toString('utf8')
    .split('\0')
    .filter(Boolean);
  if (files.length === 0) return null;
  await runGit(dir, [...repo.noHooks(), 'commit', '--quiet', '--no-verify', '-F', '-'], { input: `${message}\n`, env });
  return { commit: (await runGit(dir, ['rev-parse', 'HEAD'])).stdout.toString('utf8').trim(), files };
}
