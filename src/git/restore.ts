/**
 * Reading files out of a snapshot and putting them back (rewind). Only working files are
 * written: the index, HEAD and refs stay as they are, so `git status` shows the rewind as an
 * ordinary edit the user can review or undo.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, readdir, rename, rm, rmdir, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Snapshot } from '../core/ports/workspaceTruth';
import { confinedPath, mkdirConfined, realPathOf } from '../core/files/confinedPath';
import { GitError } from './errors';
import { FolderScope } from './folderScope';
import type { GitRepo } from './gitRepo';
import { parseCatFileBatch, parseLsTree } from './parsers';
import type { TreeEntry } from './parsers';
import { assertGitSnapshot } from './snapshot/snapshot';
import { locateInSubmodules, openSubmodule } from './submodules';

const wholeRepository = new FolderScope('');

/**
 * Turns an agent-supplied path into a clean repo-relative `/` path, or throws `invalidPath`
 * for absolute paths, `..` segments, NULs and anything inside a `.git` (also a submodule's).
 */
export function normalizeRepoPath(input: string): string {
  const slashed = process.platform === 'win32' ? input.replace(/\\/g, '/') : input;
  const segments = slashed.split('/').filter((s) => s !== '' && s !== '.');
  const invalid =
    slashed.includes('\0') ||
    slashed.startsWith('/') ||
    /^[A-Za-z]:/.test(slashed) ||
    segments.length === 0 ||
    segments.includes('..') ||
    segments.some((s) => s.toLowerCase() === '.git');
  if (invalid) throw new GitError('invalidPath', `"${input}" is not a path inside the repository.`);
  return segments.join('/');
}

/** The content of `file` (relative to `scope`) in the snapshot, or null when the snapshot has no such file. */
export async function readFileAt(
  repo: GitRepo,
  snapshot: Snapshot,
  file: string,
  scope = wholeRepository,
): Promise<Buffer | null> {
  assertGitSnapshot(snapshot);
  return readBlobAt(repo, snapshot.id, scope.toRepo(normalizeRepoPath(file)));
}

/** A file of a commit, looked up inside a submodule when the path crosses a gitlink. */
async function readBlobAt(repo: GitRepo, commit: string, repoPath: string): Promise<Buffer | null> {
  try {
    const { stdout } = await repo.run(['cat-file', 'blob', `${commit}:${repoPath}`]);
    return stdout;
  } catch (ex) {
    if (!GitError.is(ex, 'pathMissing') && !GitError.is(ex, 'snapshotMissing')) throw ex;
  }
  const located = (await locateInSubmodules(repo, commit, [repoPath])).get(repoPath);
  const sub = located ? await openSubmodule(repo, located.submodule) : null;
  if (!located || !sub) return null;
  return readBlobAt(sub, located.commit, located.rest);
}

/** Paths per `ls-tree` call: far under any command-line length limit (32 KB on Windows). */
const lsTreeChunk = 200;

async function lookUp(repo: GitRepo, commit: string, paths: string[]): Promise<Map<string, TreeEntry>> {
  const entries = new Map<string, TreeEntry>();
  for (let i = 0; i < paths.length; i += lsTreeChunk) {
    const chunk = paths.slice(i, i + lsTreeChunk);
    const output = await repo.text(['ls-tree', '-z', '--full-tree', commit, '--', ...chunk], {
      env: { GIT_LITERAL_PATHSPECS: '1' },
    });
    for (const entry of parseLsTree(output)) entries.set(entry.path, entry);
  }
  return entries;
}

/** All blobs in one `cat-file --batch` process rather than one process per file. */
async function readBlobs(repo: GitRepo, shas: string[]): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  if (shas.length === 0) return blobs;
  const { stdout } = await repo.run(['cat-file', '--batch'], { input: `${shas.join('\n')}\n` });
  for (const object of parseCatFileBatch(stdout)) {
    if (object.content) blobs.set(object.name, object.content);
  }
  return blobs;
}

/**
 * Puts `paths` (relative to `scope`) back as they were in `snapshot`: writes those it holds
 * (creating folders) and deletes those it does not; files inside a submodule are put back from
 * the submodule's recorded state. Never writes outside the workspace folder, even through a
 * symbolic link (core/files/confinedPath.ts decides, and names the link).
 */
export async function restoreFiles(
  repo: GitRepo,
  snapshot: Snapshot,
  paths: readonly string[],
  scope = wholeRepository,
): Promise<void> {
  assertGitSnapshot(snapshot);
  const wanted = [...new Set(paths.map(normalizeRepoPath))].map((p) => scope.toRepo(p));
  if (wanted.length === 0) return;
  await restoreIn(repo, snapshot.id, wanted, path.join(repo.root, ...scope.pathspec()));
}

async function restoreIn(repo: GitRepo, commit: string, wanted: string[], confineRoot: string): Promise<void> {
  const entries = await lookUp(repo, commit, wanted);
  const located = await locateInSubmodules(
    repo,
    commit,
    wanted.filter((p) => !entries.has(p)),
  );
  const inSubmodule = new Map<string, { commit: string; rest: string[] }>();
  for (const { submodule, commit: recorded, rest } of located.values()) {
    const group = inSubmodule.get(submodule) ?? { commit: recorded, rest: [] };
    group.rest.push(rest);
    inSubmodule.set(submodule, group);
  }
  const files = wanted.filter((p) => entries.get(p)?.type === 'blob');
  const blobs = await readBlobs(repo, [...new Set(files.map((p) => entries.get(p)!.sha))]);
  const root = realPathOf(confineRoot);

  // Deletions first: a path that was a file may now be a folder the snapshot needs, and back.
  for (const p of wanted.filter((w) => !entries.has(w) && !located.has(w)))
    await removeFile(repo, confineRoot, root, p);
  for (const p of files) {
    const entry = entries.get(p)!;
    const content = blobs.get(entry.sha);
    if (!content) throw new GitError('snapshotMissing', `The content of ${p} is missing from snapshot ${commit}.`);
    await writeEntry(repo, confineRoot, p, entry.mode, content);
  }
  for (const [submodule, group] of inSubmodule) {
    const sub = await openSubmodule(repo, submodule);
    if (!sub)
      throw new GitError('unsupported', `Cannot restore files of the submodule ${submodule}: it is not checked out.`);
    await restoreIn(sub, group.commit, group.rest, confineRoot);
  }
}

/**
 * The real path `repoPath` of `repo` should be written at once its folder is known to resolve
 * inside `confineRoot` — checked before creating any missing folder (mkdir would follow a link)
 * and again after. Null when the folder does not exist and `createParent` is false.
 */
function safeTarget(repo: GitRepo, confineRoot: string, repoPath: string, createParent: boolean): string | null {
  const parent = path.dirname(path.join(repo.root, ...repoPath.split('/')));
  let realParent = confinedPath(confineRoot, parent);
  if (!existsSync(realParent)) {
    if (!createParent) return null;
    realParent = mkdirConfined(confineRoot, parent);
  }
  return path.join(realParent, path.posix.basename(repoPath));
}

async function removeFile(repo: GitRepo, confineRoot: string, root: string, repoPath: string): Promise<void> {
  const target = safeTarget(repo, confineRoot, repoPath, false);
  if (!target) return;
  const stats = await lstat(target).catch(() => null);
  // Only files and links are removed; a folder the caller named is left with what it holds.
  if (!stats || stats.isDirectory()) return;
  await rm(target, { force: true });
  await pruneEmptyFolders(root, path.dirname(target));
}

/** Removes folders a deletion left empty, up to (never including) the workspace folder — as git does. */
async function pruneEmptyFolders(root: string, folder: string): Promise<void> {
  for (let dir = folder; dir !== root && dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
    if ((await readdir(dir).catch(() => ['?'])).length > 0) return;
    await rmdir(dir).catch(() => undefined);
  }
}

async function writeEntry(
  repo: GitRepo,
  confineRoot: string,
  repoPath: string,
  mode: string,
  content: Buffer,
): Promise<void> {
  const target = safeTarget(repo, confineRoot, repoPath, true)!;
  const existing = await lstat(target).catch(() => null);
  if (existing?.isDirectory()) {
    // An empty folder in the way goes; one with files is the caller's to resolve.
    await rmdir(target).catch(() => {
      throw new GitError('invalidPath', `Cannot restore ${repoPath}: a non-empty folder is in the way.`);
    });
  }
  // Write beside and rename over: atomic for watchers, and a symlink in the way is replaced,
  // never written through.
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.agent-ledger-${randomBytes(4).toString('hex')}`,
  );
  try {
    if (mode === '120000') await symlink(content.toString('utf8'), temp);
    else await writeFile(temp, content, { mode: mode === '100755' ? 0o755 : 0o644, flag: 'wx' });
    await rename(temp, target);
  } catch (ex) {
    await rm(temp, { force: true });
    throw ex;
  }
}
