import * as path from 'node:path';
import { confinedPath } from '../core/files/confinedPath';
import { workspaceWorktreesDir } from '../core/workers/worktreeRepo';
import { ledgerFolder, localFolders, storeFilesExclude, storeFilesOf, storeImageName } from '../core/ledgerFiles';

/** Where a workspace's ledger lives. */
export interface LedgerPaths {
  workspace: string;
  /** `<workspace>/.agent-ledger` */
  dataDir: string;
  /**
   * `<workspace>/.agent-ledger/ledger.db` unless overridden with `--db`; for a PostgreSQL ledger,
   * its URL with the password redacted (safe to show and log).
   */
  dbPath: string;
  /** The folder of this workspace's task worktrees: `<workspace>/.agent-ledger/worktrees`, or one the user chose. */
  worktreesDir: string;
}

export function ledgerPaths(workspace: string, dbPath?: string, worktreesDir?: string): LedgerPaths {
  const ws = path.resolve(workspace);
  const dataDir = path.join(ws, ledgerFolder);
  return {
    workspace: ws,
    dataDir,
    dbPath: dbPath ? path.resolve(dbPath) : path.join(dataDir, storeImageName),
    worktreesDir: worktreesDir ? workspaceWorktreesDir(worktreesDir, ws) : path.join(dataDir, localFolders.worktrees),
  };
}

/**
 * The store's files, unless the user named them (`--db`), must stay inside the workspace by
 * their real path: `.agent-ledger/` or `ledger.db`/`ledger.journal`/`ledger.lock` committed as
 * links would make every write land outside.
 */
export function confineStore(paths: LedgerPaths, explicitDb: boolean): void {
  if (explicitDb) return;
  confinedPath(paths.workspace, paths.dataDir);
  for (const file of Object.values(storeFilesOf(paths.dbPath))) confinedPath(paths.workspace, file);
}

/** Machine-local files kept out of Git (DESIGN.md); memory/ and agents/ are meant to be committed. */
export const excludedFromGit = [
  storeFilesExclude,
  ...Object.values(localFolders).map((folder) => `${ledgerFolder}/${folder}/`),
];
