/**
 * Which workspace (and so which ledger) a command run in a folder uses, the way Git finds the
 * repository: inside a repository, the nearest folder at or above the current one that holds a
 * ledger (`.agent-ledger/`), up to the repository's top, else the top itself; inside a task's
 * worktree (`.agent-ledger/worktrees/task-5`, or a worktrees folder elsewhere), the same search
 * from the matching folder of the main checkout — never a second ledger in the worktree. Outside
 * any repository, the current folder, as before (no search up through a home folder).
 *
 * A folder named with `--workspace` that has no ledger of its own, inside a repository whose
 * ledger is above it or inside a task's worktree, is refused with where the ledger is: used, it
 * would start a second ledger that nobody else reads.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerError } from '../core/errors';
import { ledgerFolder, storeFilesOf, storeImageName } from '../core/ledgerFiles';
import { repositoryOf } from '../git/repositoryOf';

export interface WorkspaceChoice {
  workspace: string;
  /** Said to the person when the workspace is not the folder they are in; undefined when it is. */
  note?: string;
}

function hasLedger(dir: string): boolean {
  try {
    return fs.statSync(path.join(dir, ledgerFolder)).isDirectory();
  } catch {
    return false;
  }
}

function realOf(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** The nearest folder from `start` up to `top` (both included) that holds a ledger. */
function ledgerAbove(start: string, top: string): string | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (hasLedger(dir)) return dir;
    if (dir === top || path.dirname(dir) === dir || !isInside(dir, top)) return undefined;
  }
}

function isInside(dir: string, top: string): boolean {
  const rel = path.relative(top, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The workspace of a command run in `cwd` without `--workspace`. */
export function findWorkspace(cwd: string): WorkspaceChoice {
  const here = realOf(cwd);
  const repo = repositoryOf(here);
  if (!repo) return { workspace: here };
  const top = repo.mainTop ?? repo.top;
  // In a linked worktree: the same place in the main checkout.
  const start = repo.mainTop ? path.join(repo.mainTop, path.relative(repo.top, here)) : here;
  const workspace = ledgerAbove(start, top) ?? top;
  if (workspace === here) return { workspace };
  const where = repo.mainTop ? ` (this folder is in the worktree ${repo.top})` : '';
  return { workspace, note: `using the ledger of ${workspace}${where}` };
}

/**
 * Refuses a `--workspace` folder without a ledger of its own whose repository's ledger is
 * elsewhere: above it in the same repository, or in the main checkout of the worktree it is in.
 */
export function refuseSecondLedger(workspace: string): void {
  const dir = realOf(workspace);
  const repo = repositoryOf(dir);
  if (!repo) return;
  // A worktree's checkout may hold committed `.agent-ledger/` files (agents, memory): only a store
  // of its own makes it a ledger.
  const store = storeFilesOf(path.join(dir, ledgerFolder, storeImageName));
  if (repo.mainTop && !fs.existsSync(store.image) && !fs.existsSync(store.journal)) {
    const start = path.join(repo.mainTop, path.relative(repo.top, dir));
    const main = ledgerAbove(start, repo.mainTop) ?? repo.mainTop;
    throw new LedgerError(
      'ConfigError',
      `${dir} is in the worktree ${repo.top}, not a workspace of its own: its repository's ledger is ${path.join(main, ledgerFolder)}; leave out --workspace (the command finds it from here) or pass --workspace ${main}`,
      { workspace: dir, ledger: path.join(main, ledgerFolder) },
    );
  }
  if (repo.mainTop || hasLedger(dir)) return;
  const above = path.dirname(dir) === dir ? undefined : ledgerAbove(path.dirname(dir), repo.top);
  if (above)
    throw new LedgerError(
      'ConfigError',
      `a ledger already exists at ${path.join(above, ledgerFolder)}, above ${dir}: leave out --workspace (the command finds it) or pass --workspace ${above}; to start a separate ledger in ${dir} on purpose, name its file with --db ${path.join(dir, ledgerFolder, storeImageName)}`,
      { workspace: dir, ledger: path.join(above, ledgerFolder) },
    );
}
