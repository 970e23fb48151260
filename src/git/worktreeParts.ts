import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CheckoutScope } from '../core/ports/worktrees';
import type { GitRepo } from './gitRepo';

export interface ListedWorktree {
  path: string;
  head: string | null;
  /** Short branch name, null when detached. */
  branch: string | null;
}

/** Parses `git worktree list --porcelain -z`: NUL-terminated lines, an empty one ends a record. */
export function parseWorktreeList(output: string): ListedWorktree[] {
  const list: ListedWorktree[] = [];
  let current: ListedWorktree | undefined;
  for (const line of output.split('\0')) {
    if (line.startsWith('worktree ')) {
      current = { path: line.slice('worktree '.length), head: null, branch: null };
      list.push(current);
    } else if (current && line.startsWith('HEAD ')) {
      current.head = line.slice('HEAD '.length);
    } else if (current && line.startsWith('branch ')) {
      current.branch = line.slice('branch '.length).replace(/^refs\/heads\//, '');
    } else if (line === '') {
      current = undefined;
    }
  }
  return list;
}

export async function listWorktrees(repo: GitRepo): Promise<ListedWorktree[]> {
  const { stdout } = await repo.run(['worktree', 'list', '--porcelain', '-z']);
  return parseWorktreeList(stdout.toString('utf8'));
}

/**
 * Sparse-checkout lines (non-cone, gitignore syntax) for a read scope: each read glob anchored
 * at the workspace folder (`src/**` → `/src/**`, or `/pkg/app/src/**` when the workspace is the
 * repository's `pkg/app/`: scopes are written relative to the workspace, like every path the
 * ledger reports), then each exclude as a negation; a scope that reads everything keeps the
 * whole repository checked out. Null when everything is readable and nothing
 * excluded: no sparse checkout at all, which keeps a full worktree as cheap as `git worktree add`.
 */
export function sparsePatterns(scope: CheckoutScope, prefix = ''): string[] | null {
  const everything = scope.read.some((g) => g === '**' || g === '**/*');
  if (everything && scope.exclude.length === 0) return null;
  const folder = prefix
    .replace(/\/*$/, '/')
    .replace(/^\/$/, '')
    .replace(/[\\*?[!#]/g, '\\$&');
  const anchor = (glob: string) => `/${folder}${glob.replace(/^\/+/, '')}`;
  // Everything readable stays the whole repository (a package builds with the root's files); excludes still apply.
  return [...(everything ? ['/*'] : scope.read.map(anchor)), ...scope.exclude.map((g) => `!${anchor(g)}`)];
}

/** Disk used by a folder's files, in bytes of allocated blocks (what removing it frees). */
export function diskUsage(dir: string): number {
  let total = 0;
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const p = path.join(current, entry.name);
      if (entry.isDirectory()) {
        stack.push(p);
        continue;
      }
      try {
        const s = fs.lstatSync(p);
        total += typeof s.blocks === 'number' && s.blocks > 0 ? s.blocks * 512 : s.size;
      } catch {
        /* removed meanwhile */
      }
    }
  }
  return total;
}
