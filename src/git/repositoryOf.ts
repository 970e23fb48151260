/**
 * Which repository a folder is in, read from the `.git` entries on the way up, without starting
 * Git (every CLI command asks it before it opens a ledger; a `git rev-parse` would cost a process
 * each time). A linked worktree's `.git` is a file naming its git dir (`gitdir:
 * <repo>/.git/worktrees/<name>`), whose `commondir` leads to the main repository's `.git`: the
 * main checkout is the folder holding that.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface RepositoryOf {
  /** The top of the work tree the folder is in (a linked worktree's own top when it is one). */
  top: string;
  /** The main checkout's top when `top` is a linked worktree of it, else undefined. */
  mainTop?: string;
}

/** The work tree `folder` is in, or undefined outside any repository. */
export function repositoryOf(folder: string): RepositoryOf | undefined {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const stat = statOrNull(dotGit);
    if (stat?.isDirectory()) return { top: dir };
    if (stat?.isFile()) return { top: dir, mainTop: mainCheckoutOf(dotGit) };
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The main checkout of the linked worktree whose `.git` file is `dotGit`; undefined for a submodule or an unusual layout. */
function mainCheckoutOf(dotGit: string): string | undefined {
  try {
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGit, 'utf8'))?.[1];
    if (!pointer) return undefined;
    const gitDir = path.resolve(path.dirname(dotGit), pointer);
    // Only a linked worktree has `commondir`; a submodule's git dir does not.
    const common = fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
    const commonDir = path.resolve(gitDir, common);
    return path.basename(commonDir) === '.git' ? path.dirname(commonDir) : undefined;
  } catch {
    return undefined;
  }
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}
