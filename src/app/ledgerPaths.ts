import { createHash } from 'node:crypto';
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
  /**
   * This ledger's run logs (`exec-N.log`): `<workspace>/.agent-ledger/runs` for the workspace's own
   * ledger, a folder of its own under it for any other (`--db`, a team ledger): two ledgers number
   * their runs alike, and must never share a log (see {@link runsDirOf}).
   */
  runsDir: string;
}

export function ledgerPaths(workspace: string, dbPath?: string, worktreesDir?: string): LedgerPaths {
  const ws = path.resolve(workspace);
  const dataDir = path.join(ws, ledgerFolder);
  return {
    workspace: ws,
    dataDir,
    dbPath: dbPath ? path.resolve(dbPath) : path.join(dataDir, storeImageName),
    worktreesDir: worktreesDir ? workspaceWorktreesDir(worktreesDir, ws) : path.join(dataDir, localFolders.worktrees),
    runsDir: path.join(dataDir, localFolders.runs),
  };
}

/**
 * The run logs of the ledger at `location` (a file path, or a PostgreSQL URL with its password
 * redacted): the workspace's own ledger keeps `.agent-ledger/runs`; another file ledger gets
 * `runs/db-<8 hex of its path>`, a PostgreSQL ledger `runs/pg-<8 hex of its URL>`. Without this, a
 * workspace used with its file ledger and with a team ledger wrote both ledgers' `exec-1.log` into
 * one file, and the usage read back from it credited one run with the other's cost.
 */
export function runsDirOf(paths: LedgerPaths, location: { kind: 'embedded' | 'postgres'; where: string }): string {
  const own = path.join(paths.dataDir, localFolders.runs);
  if (location.kind === 'embedded' && path.resolve(location.where) === path.join(paths.dataDir, storeImageName))
    return own;
  const hash = createHash('sha1').update(location.where).digest('hex').slice(0, 8);
  return path.join(own, `${location.kind === 'postgres' ? 'pg' : 'db'}-${hash}`);
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
