/**
 * The tree of a repository's working state — tracked, untracked and not ignored files, as
 * `git add --all` would stage them — written without touching the user's index.
 *
 * Fast route (one git process when nothing changed): `git status` on the persistent private
 * index (privateIndex.ts; fresh stat data and an untracked cache, so git reads only what
 * changed) names what differs; a work tree identical to HEAD *is* HEAD's tree; otherwise only
 * the changed folders' trees are built (changedTree.ts: `cat-file` and `hash-object` side by
 * side, no index read) — or, where that could differ from `git add`, the index route: `git add`
 * of just those paths and `git write-tree` on a per-snapshot link of the private index.
 * Full route (the baseline, and the fallback whenever the fast one fails): a copy of the
 * user's index, `git add --all`, `git write-tree`.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, rm, stat, utimes } from 'node:fs/promises';
import * as path from 'node:path';
import type { FolderScope } from '../folderScope';
import type { GitRepo } from '../gitRepo';
import { changedTree } from './changedTree';
import { blobSettings } from './plainBlobs';
import { leasePrivateIndex } from './privateIndex';
import { parseStatus } from './statusReport';
import type { StatusReport } from './statusReport';
import { recordSubmodules, snapshotSubmodules } from '../submodules';
import type { SnapshotSubmodule, SubmoduleState } from '../submodules';

export interface WorkingTree {
  /** The tree's id — or HEAD's commit id when `isHead` (a diff takes either). */
  tree: string;
  /** HEAD's commit (null on an unborn branch). */
  head: string | null;
  /** The working state is exactly HEAD's: the snapshot is HEAD itself, no object written. */
  isHead: boolean;
  submodules: SubmoduleState[];
}

export type SnapshotRoute = 'fast' | 'full';

/** How a working tree was built: HEAD itself, changed trees only, the index route, the full route. */
export type TreeRoute = 'head' | 'changedTrees' | 'index' | 'full';

const routesTaken: Record<TreeRoute, number> = { head: 0, changedTrees: 0, index: 0, full: 0 };

/** How many working trees this process built by each route (tests and benchmarks check which one ran). */
export function treeRoutesTaken(): Readonly<Record<TreeRoute, number>> {
  return { ...routesTaken };
}

/**
 * Settings for commands that write a private index: no hooks (`post-index-change` runs on
 * every index write), no file system monitor (a hook or daemon of the user's); no split index (it would leave a sharedindex file in the git dir); and
 * no trailing checksum (git >= 2.40; older versions ignore the key): on a 100,000-file
 * repository that is ~8 MB hashed on each write.
 */
export function privateIndexConfig(repo: GitRepo): string[] {
  return [...repo.noHooks(), '-c', 'core.splitIndex=false', '-c', 'index.skipHash=true', '-c', 'core.fsmonitor=false'];
}

/** The working state's tree; checked-out submodules inside `scope` are snapshotted by `snapshotSubmodule` meanwhile. */
export async function workingTree(
  repo: GitRepo,
  scope: FolderScope,
  snapshotSubmodule: SnapshotSubmodule,
  route: SnapshotRoute = 'fast',
): Promise<WorkingTree> {
  // Submodules are other repositories: snapshotted while this one is read, recorded after.
  const pending = snapshotSubmodules(repo, scope, snapshotSubmodule);
  pending.catch(() => undefined);
  if (route === 'fast') {
    const fast = await fastWorkingTree(repo, pending);
    if (fast) return fast;
  }
  routesTaken.full++;
  return fullWorkingTree(repo, pending);
}

/**
 * How often status may write the kept index back (its refreshed stat data and untracked cache).
 * The write rewrites the whole index (1.8 MB at 20,000 files) whenever anything changed, and a
 * second time a moment later (a folder changed in the second the index was written is racy for
 * the untracked cache) — ~5–10 ms of each of the first two snapshots after an edit. In between,
 * status runs with `GIT_OPTIONAL_LOCKS=0`: the same report, nothing written; what it re-reads
 * meanwhile (the folders and files that changed since the last write) is what it would have read
 * before writing anyway.
 */
const refreshEveryMs = 3_000;
/** When this process last let status refresh each kept index. */
const lastRefresh = new Map<string, number>();

/** Whether status may write `kept` back now (always the first time this process uses it). */
function refreshDue(kept: string): boolean {
  const now = Date.now();
  if (now - (lastRefresh.get(kept) ?? -Infinity) < refreshEveryMs) return false;
  if (lastRefresh.size > 64) lastRefresh.clear();
  lastRefresh.set(kept, now);
  return true;
}

async function fastWorkingTree(repo: GitRepo, pending: Promise<SubmoduleState[]>): Promise<WorkingTree | null> {
  const lease = await leasePrivateIndex(repo).catch(() => null);
  if (!lease) return null;
  const env = { GIT_INDEX_FILE: lease.file };
  const config = privateIndexConfig(repo);
  // Whether changed files can be hashed here (plainBlobs.ts): looked at while status runs.
  const settings = blobSettings(repo);
  settings.catch(() => undefined);
  try {
    let report: StatusReport;
    try {
      const { stdout } = await repo.run(
        [
          ...config,
          // The kept index status refreshes keeps its checksum, so another process can check it.
          '-c',
          'index.skipHash=false',
          '-c',
          'core.untrackedCache=true',
          // The untracked cache is kept for the listing of every untracked file (changedTree.ts hashes each).
          '-c',
          'status.showUntrackedFiles=all',
          'status',
          '--porcelain=v2',
          '-z',
          '--branch',
          '--no-ahead-behind',
          '--no-renames',
          // The user's settings must not hide anything: untracked files, submodule changes.
          '--untracked-files=all',
          // A submodule's commit yes, its files no: those are read by snapshotSubmodules, never by a
          // status inside it (that status would refresh the submodule's own index).
          '--ignore-submodules=dirty',
          '--ignored=no',
        ],
        { env: refreshDue(lease.kept) ? env : { ...env, GIT_OPTIONAL_LOCKS: '0' } },
      );
      report = parseStatus(stdout.toString('latin1'));
    } catch {
      // The kept index could not be read (damaged, truncated, from an older git): copy it afresh next time.
      await lease.discard();
      return null;
    }
    await lease.publish().catch(() => undefined);
    const submodules = await pending;
    if (!report.changed && report.head && submodules.every((s) => !s.snapshot)) {
      routesTaken.head++;
      return { tree: report.head, head: report.head, isHead: true, submodules };
    }
    // Only the changed folders' trees, written here; the index route when that cannot be exact.
    const tree = await changedTree(repo, report.head, report.entries, submodules, settings).catch(() => null);
    if (tree) {
      routesTaken.changedTrees++;
      return { tree, head: report.head, isHead: false, submodules };
    }
    return await indexRoute(repo, lease.file, report, submodules);
  } finally {
    await lease.release();
  }
}

/** `git add` of the paths status reported, then `git write-tree`, on the per-snapshot private index. */
async function indexRoute(
  repo: GitRepo,
  indexFile: string,
  report: StatusReport,
  submodules: SubmoduleState[],
): Promise<WorkingTree | null> {
  const env = { GIT_INDEX_FILE: indexFile };
  const config = privateIndexConfig(repo);
  try {
    if (report.toAdd.length > 0) {
      // Literal paths from git itself (bytes as git printed them); `--sparse` as the full route (entries outside a sparse cone).
      await repo.run([...config, 'add', '--all', '--sparse', '--pathspec-from-file=-', '--pathspec-file-nul'], {
        env: { ...env, GIT_LITERAL_PATHSPECS: '1' },
        input: Buffer.from(report.toAdd.join('\0'), 'latin1'),
      });
    }
    await recordSubmodules(repo, { env, config }, submodules);
    // write-tree writes the index too (its cache-tree), so the same settings apply.
    const tree = await repo.text([...config, 'write-tree'], { env });
    routesTaken.index++;
    return { tree, head: report.head, isHead: false, submodules };
  } catch {
    // A file went away or became ignored between status and add: the full route sees it as it is now.
    return null;
  }
}

/** The full route: a copy of the user's index, `add --all`, `write-tree`. */
async function fullWorkingTree(repo: GitRepo, pending: Promise<SubmoduleState[]>): Promise<WorkingTree> {
  const tempIndex = repo.privatePath(`index-${randomBytes(8).toString('hex')}`);
  const env = { GIT_INDEX_FILE: tempIndex };
  const config = privateIndexConfig(repo);
  const headPromise = repo.head();
  // Handled here so a failure while `add` runs is not an unhandled rejection; awaited below.
  headPromise.catch(() => undefined);
  try {
    await copyIndex(repo, tempIndex);
    await repo.run([...config, 'add', '--all', '--sparse', '--', ':/'], { env });
    const submodules = await pending;
    await recordSubmodules(repo, { env, config }, submodules);
    const tree = await repo.text([...config, 'write-tree'], { env });
    return { tree, head: await headPromise, isHead: false, submodules };
  } finally {
    await rm(tempIndex, { force: true });
    await rm(`${tempIndex}.lock`, { force: true });
  }
}

/**
 * Copies the real index next to it so `git add` starts from its stat data: unchanged files
 * are not read again. Without an index yet (fresh repository) git starts from an empty one.
 */
async function copyIndex(repo: GitRepo, tempIndex: string): Promise<void> {
  const realIndex = path.join(repo.gitDir, 'index');
  let mtimeSeconds: number;
  try {
    mtimeSeconds = Math.floor((await stat(realIndex)).mtimeMs / 1000);
    await copyFile(realIndex, tempIndex);
  } catch (ex) {
    if ((ex as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw ex;
  }
  // Racy-git: the copy gets the original's mtime, rounded down (privateIndex.ts says why).
  await utimes(tempIndex, mtimeSeconds, mtimeSeconds);
}
