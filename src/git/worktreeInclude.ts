/**
 * What a fresh worktree lacks to build and test: the files Git ignores (`.env`, generated code,
 * `node_modules`). Two ways to bring them, both applied once, when a task's worktree is created:
 *
 * - `.worktreeinclude` at the repository's top (gitignore syntax, the convention Claude Code,
 *   Codex, Conductor and ccmanager read): a file Git ignores that matches it is copied from the
 *   main checkout. A tracked or untracked-but-not-ignored file is never copied (the checkout has
 *   the first, the second would become a change of the task).
 * - `link:` folders of `.agent-ledger/workspace.yaml` (as VS Code's `git.worktreeSymlinkFolders`):
 *   a symbolic link to the main checkout's folder, e.g. `node_modules`, instead of a copy; it is
 *   added to the repository's exclude file so the link itself never counts as a change.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore from 'ignore';
import type { GitRepo } from './gitRepo';
import { ensureExcluded } from './exclude';

export const worktreeIncludeFile = '.worktreeinclude';

/** Entries visited under an ignored folder that `.worktreeinclude` does not take whole, at most. */
const maxWalked = 20_000;

export interface IncludeResult {
  /** Repository-relative paths copied (a folder counts once). */
  copied: string[];
  /** Repository-relative folders linked. */
  linked: string[];
}

/**
 * Copies into `worktree` the ignored files of the main checkout that `.worktreeinclude` names, and
 * links the `link` folders (workspace-relative). Never overwrites what the worktree has.
 */
export async function bringIgnoredFiles(
  repo: GitRepo,
  worktree: string,
  workspace: string,
  link: readonly string[],
): Promise<IncludeResult> {
  const result: IncludeResult = { copied: [], linked: [] };
  const patterns = readIncludePatterns(repo.root);
  if (patterns) {
    const matcher = ignore().add(patterns);
    const { stdout } = await repo.run([
      'ls-files',
      '--others',
      '--ignored',
      '--exclude-standard',
      '--directory',
      '--no-empty-directory',
      '-z',
    ]);
    let budget = maxWalked;
    for (const entry of stdout.toString('utf8').split('\0').filter(Boolean)) {
      const rel = entry.replace(/\/$/, '');
      // The ledger's own machine-local files are never a project's to copy.
      if (rel === '.agent-ledger' || rel.startsWith('.agent-ledger/')) continue;
      const isDir = entry.endsWith('/');
      if (matcher.ignores(isDir ? `${rel}/` : rel)) {
        if (copy(repo.root, worktree, rel)) result.copied.push(rel);
      } else if (isDir) {
        // An ignored folder not taken whole may hold files that are (`config/.env`).
        budget = walk(repo.root, rel, budget, (file) => {
          if (matcher.ignores(file) && copy(repo.root, worktree, file)) result.copied.push(file);
        });
      }
    }
  }
  const prefix = path.relative(repo.root, path.resolve(workspace)).split(path.sep).filter(Boolean).join('/');
  for (const folder of link) {
    const rel = prefix ? `${prefix}/${folder}` : folder;
    const source = path.join(repo.root, rel);
    const target = path.join(worktree, rel);
    if (!fs.existsSync(source) || fs.existsSync(target) || isLink(target)) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.symlinkSync(source, target, 'dir');
    result.linked.push(rel);
  }
  // A link is a file to Git: `node_modules/` in .gitignore does not match it, this does.
  if (link.length > 0)
    await ensureExcluded(
      workspace,
      link.map((f) => `/${f}`),
    );
  return result;
}

/** The patterns of `.worktreeinclude`, or null when there is none. */
function readIncludePatterns(root: string): string | null {
  try {
    return fs.readFileSync(path.join(root, worktreeIncludeFile), 'utf8');
  } catch {
    return null;
  }
}

/** Copies one repository-relative file or folder, links kept as links; false when the worktree has it already. */
function copy(root: string, worktree: string, rel: string): boolean {
  const target = path.join(worktree, rel);
  if (fs.existsSync(target) || isLink(target)) return false;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.cpSync(path.join(root, rel), target, { recursive: true, verbatimSymlinks: true, errorOnExist: false });
  return true;
}

/** Calls `visit` with the repository-relative files under `rel`, within `budget` entries; returns what is left. */
function walk(root: string, rel: string, budget: number, visit: (file: string) => void): number {
  let left = budget;
  const stack = [rel];
  while (stack.length > 0 && left > 0) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (--left <= 0) break;
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) stack.push(file);
      else visit(file);
    }
  }
  return left;
}

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
