/**
 * Landing a task's branch on its base branch, without ever touching work a person has not
 * committed: the merge is computed without a checkout (`git merge-tree --write-tree`, Git ≥ 2.38;
 * a rebase happens in a temporary worktree of its own), and the base branch moves by
 * fast-forward — in the checkout that has it checked out, only when none of the files the landing
 * changes is modified or untracked there, else by its ref alone. A refusal changes nothing.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LedgerError } from '../core/errors';
import type { Landed, Landing, LandRequest } from '../core/ports/landing';
import { GitError } from './errors';
import { GitRepo, runGit } from './gitRepo';
import { listWorktrees } from './worktreeParts';

const safeBranch = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

export class GitLanding implements Landing {
  private repoPromise: Promise<GitRepo> | undefined;

  constructor(private readonly workspace: string) {}

  /** The branch checked out in the workspace, or null when its HEAD is detached. */
  async currentBranch(): Promise<string | null> {
    const repo = await this.repo();
    const { stdout } = await repo.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], { okExitCodes: [1] });
    return stdout.toString('utf8').trim() || null;
  }

  /** Files with uncommitted changes (tracked or untracked, not ignored) in a checkout, relative to it. */
  async uncommittedFiles(dir: string): Promise<string[]> {
    const { stdout } = await runGit(dir, ['status', '--porcelain', '-z', '--untracked-files=all']);
    return statusPaths(stdout.toString('utf8'));
  }

  /** The commit a branch points at, or null when it does not exist. */
  async tipOf(branch: string): Promise<string | null> {
    const repo = await this.repo();
    checkBranch(branch);
    const { stdout } = await repo.run(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`], {
      okExitCodes: [1],
    });
    return stdout.toString('utf8').trim() || null;
  }

  /**
   * Lands `branch` on `onto`: nothing when `onto` already holds it (`already`), a fast-forward when
   * it can, else a merge commit (or, with `rebase`, the branch's commits replayed on `onto`).
   * Refuses (InvalidStatus, nothing changed) on a conflict, naming the files, and when the checkout
   * of `onto` has uncommitted changes in files the landing changes.
   */
  async land(request: LandRequest): Promise<Landed> {
    const repo = await this.repo();
    checkBranch(request.branch);
    checkBranch(request.onto);
    const base = await this.tipOf(request.onto);
    if (!base)
      throw new LedgerError('ValidationError', `there is no branch "${request.onto}" to land on`, {
        reason: 'noBaseBranch',
        onto: request.onto,
      });
    const tip = await this.tipOf(request.branch);
    if (!tip)
      throw new LedgerError('InvalidStatus', `the task's branch ${request.branch} no longer exists`, {
        reason: 'branchGone',
        branch: request.branch,
      });
    if (await isAncestor(repo, tip, base))
      return { method: 'already', from: base, to: base, files: [], commits: 0, checkout: null };
    const commits = Number(await repo.text(['rev-list', '--count', `${base}..${tip}`]));
    let method: Landed['method'];
    let to: string;
    if (await isAncestor(repo, base, tip)) {
      method = 'fast-forward';
      to = tip;
    } else if (request.rebase) {
      method = 'rebase';
      to = await rebased(repo, tip, base, request);
    } else {
      method = 'merge';
      to = await merged(repo, tip, base, request);
    }
    const files = (await repo.text(['diff', '--name-only', '-z', base, to])).split('\0').filter(Boolean);
    const checkout = (await listWorktrees(repo)).find((w) => w.branch === request.onto)?.path ?? null;
    if (checkout) {
      // Only the files the landing changes matter: other uncommitted work stays as it is.
      const dirty = new Set(await this.uncommittedFiles(checkout));
      const touched = files.filter((f) => dirty.has(f));
      if (touched.length > 0)
        throw new LedgerError(
          'InvalidStatus',
          `${request.onto} is checked out in ${checkout} with uncommitted changes to ${touched.join(', ')}, which landing ${request.branch} would change: commit or stash them first`,
          { reason: 'dirtyCheckout', files: touched, checkout, onto: request.onto },
        );
      await runGit(checkout, [...repo.noHooks(), 'merge', '--ff-only', '--quiet', to]);
    } else {
      await repo.run([
        ...repo.noHooks(),
        'update-ref',
        '-m',
        `agent-ledger: land ${request.branch}`,
        `refs/heads/${request.onto}`,
        to,
        base,
      ]);
    }
    return { method, from: base, to, files, commits, checkout };
  }

  /**
   * After a rebase landed, the task's branch points at the commits that landed (and is deleted,
   * being merged now); after a merge or fast-forward it is deleted when merged. Its worktree must
   * be gone first.
   */
  async retireBranch(branch: string, landedAt: string | null): Promise<boolean> {
    const repo = await this.repo();
    checkBranch(branch);
    const tip = await this.tipOf(branch);
    if (!tip) return false;
    if (landedAt && tip !== landedAt)
      await repo.run([...repo.noHooks(), 'update-ref', `refs/heads/${branch}`, landedAt, tip]);
    return repo.run([...repo.noHooks(), 'branch', '-d', '--quiet', branch]).then(
      () => true,
      () => false,
    );
  }

  private repo(): Promise<GitRepo> {
    this.repoPromise ??= GitRepo.open(this.workspace);
    this.repoPromise.catch(() => (this.repoPromise = undefined));
    return this.repoPromise;
  }
}

function checkBranch(name: string): void {
  if (!safeBranch.test(name) || name.includes('..') || name.endsWith('.lock'))
    throw new GitError('invalidName', `"${name}" is not a branch name this command takes.`);
}

async function isAncestor(repo: GitRepo, a: string, b: string): Promise<boolean> {
  const { exitCode } = await repo.run(['merge-base', '--is-ancestor', a, b], { okExitCodes: [1] });
  return exitCode === 0;
}

function conflict(request: LandRequest, files: string[]): LedgerError {
  return new LedgerError(
    'InvalidStatus',
    `${request.branch} conflicts with ${request.onto} in ${files.join(', ')}: nothing was landed. Bring ${request.onto} into the task's branch and resolve them there (or ask its agent to), then land again`,
    { reason: 'conflict', files, branch: request.branch, onto: request.onto },
  );
}

/** The merge of `tip` into `base` as a new commit, computed without a checkout. */
async function merged(repo: GitRepo, tip: string, base: string, request: LandRequest): Promise<string> {
  const { stdout, exitCode } = await repo.run(
    ['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', base, tip],
    { okExitCodes: [1] },
  );
  const [tree, ...rest] = stdout.toString('utf8').split('\0');
  if (exitCode === 1) throw conflict(request, [...new Set(rest.filter(Boolean))]);
  const { stdout: commit } = await repo.run(['commit-tree', tree, '-p', base, '-p', tip, '-F', '-'], {
    input: `${request.message}\n`,
  });
  return commit.toString('utf8').trim();
}

/** `tip`'s commits replayed on `base`, in a temporary worktree of its own (the task's and the person's stay untouched). */
async function rebased(repo: GitRepo, tip: string, base: string, request: LandRequest): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-land-'));
  const place = path.join(dir, 'rebase');
  await repo.run([...repo.noHooks(), 'worktree', 'add', '--detach', '--quiet', place, tip]);
  try {
    const result = await runGit(place, [...repo.noHooks(), 'rebase', '--quiet', base], {
      okExitCodes: [1, 128],
      env: { GIT_EDITOR: 'true' },
    });
    if (result.exitCode !== 0) {
      const files = (await runGit(place, ['diff', '--name-only', '-z', '--diff-filter=U'])).stdout
        .toString('utf8')
        .split('\0')
        .filter(Boolean);
      await runGit(place, [...repo.noHooks(), 'rebase', '--abort'], { okExitCodes: [1, 128] });
      throw conflict(request, files.length > 0 ? files : ['(the rebase stopped: see git rebase)']);
    }
    return (await runGit(place, ['rev-parse', 'HEAD'])).stdout.toString('utf8').trim();
  } finally {
    await repo.run([...repo.noHooks(), 'worktree', 'remove', '--force', place]).catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Paths of `git status --porcelain -z` (a rename's both sides). */
export function statusPaths(output: string): string[] {
  const parts = output.split('\0');
  const paths: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i];
    if (entry.length < 4) continue;
    paths.push(entry.slice(3));
    // A rename or copy is followed by its source path.
    if (entry[0] === 'R' || entry[0] === 'C') paths.push(parts[++i] ?? '');
  }
  return paths.filter(Boolean);
}
