/**
 * Reading files out of a snapshot and putting them back (rewind). Only working files are
 * written: the index, HEAD and refs stay as they are, so `git status` shows the rewind as an
 * ordinary edit the user can review or undo.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, realpath, rename, rm, rmdir, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Snapshot } from '../core/ports';
import { GitError } from './errors';
import type { GitRepo } from './gitRepo';
import { parseCatFileBatch, parseLsTree } from './parsers';
import type { TreeEntry } from './parsers';
import { assertGitSnapshot } from './snapshot';

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

/** The content of `file` in the snapshot, or null when the snapshot has no such file. */
export async function readFileAt(repo: GitRepo, snapshot: Snapshot, file: string): Promise<Buffer | null> {
  assertGitSnapshot(snapshot);
  const repoPath = normalizeRepoPath(file);
  try {
    const { stdout } = await repo.run(['cat-file', 'blob', `${snapshot.id}:${repoPath}`]);
    return stdout;
  } catch (ex) {
    if (GitError.is(ex, 'pathMissing')) return null;
    throw ex;
  }
}

/** Paths per `ls-tree` call: far under any command-line length limit (32 KB on Windows). */
const lsTreeChunk = 200;

async function lookUp(repo: GitRepo, snapshot: Snapshot, paths: string[]): Promise<Map<string, TreeEntry>> {
  const entries = new Map<string, TreeEntry>();
  for (let i = 0; i < paths.length; i += lsTreeChunk) {
    const chunk = paths.slice(i, i + lsTreeChunk);
    const output = await repo.text(['ls-tree', '-z', '--full-tree', snapshot.id, '--', ...chunk], {
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
 * Puts `paths` back as they were in `snapshot`: writes those it holds (creating folders) and
 * deletes those it does not. Never writes outside the repository, even through a symlink.
 */
export async function restoreFiles(repo: GitRepo, snapshot: Snapshot, paths: readonly string[]): Promise<void> {
  assertGitSnapshot(snapshot);
  const wanted = [...new Set(paths.map(normalizeRepoPath))];
  if (wanted.length === 0) return;
  const entries = await lookUp(repo, snapshot, wanted);
  const files = wanted.filter((p) => entries.get(p)?.type === 'blob');
  const blobs = await readBlobs(repo, [...new Set(files.map((p) => entries.get(p)!.sha))]);
  const root = await realpath(repo.root);

  // Deletions first: a path that was a file may now be a folder the snapshot needs, and back.
  for (const p of wanted.filter((w) => !entries.has(w))) await removeFile(root, p);
  for (const p of files) {
    const entry = entries.get(p)!;
    const content = blobs.get(entry.sha);
    if (!content) throw new GitError('snapshotMissing', `The content of ${p} is missing from snapshot ${snapshot.id}.`);
    await writeEntry(root, p, entry.mode, content);
  }
}

function assertInside(root: string, realFolder: string, repoPath: string): void {
  const relative = path.relative(root, realFolder);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new GitError('invalidPath', `${repoPath} resolves outside the repository (through a symbolic link).`);
  }
}

/**
 * The absolute path of `repoPath` once its folder is known to resolve inside `root` — checked
 * before creating any missing folder (mkdir would follow a symlink out) and again after.
 * Null when the folder does not exist and `createParent` is false.
 */
async function safeTarget(root: string, repoPath: string, createParent: boolean): Promise<string | null> {
  const target = path.join(root, ...repoPath.split('/'));
  const parent = path.dirname(target);
  let existing = parent;
  for (;;) {
    try {
      assertInside(root, await realpath(existing), repoPath);
      break;
    } catch (ex) {
      const code = (ex as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || existing === root) throw ex;
      existing = path.dirname(existing);
    }
  }
  if (existing !== parent) {
    if (!createParent) return null;
    await mkdir(parent, { recursive: true });
  }
  const realParent = await realpath(parent);
  assertInside(root, realParent, repoPath);
  return path.join(realParent, path.basename(target));
}

async function removeFile(root: string, repoPath: string): Promise<void> {
  const target = await safeTarget(root, repoPath, false);
  if (!target) return;
  const stats = await lstat(target).catch(() => null);
  // Only files and links are removed; a folder the caller named is left with what it holds.
  if (!stats || stats.isDirectory()) return;
  await rm(target, { force: true });
  await pruneEmptyFolders(root, path.dirname(target));
}

/** Removes folders a deletion left empty, up to (never including) the root — as git does. */
async function pruneEmptyFolders(root: string, folder: string): Promise<void> {
  for (let dir = folder; dir !== root && dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
    if ((await readdir(dir).catch(() => ['?'])).length > 0) return;
    await rmdir(dir).catch(() => undefined);
  }
}

async function writeEntry(root: string, repoPath: string, mode: string, content: Buffer): Promise<void> {
  const target = (await safeTarget(root, repoPath, true))!;
  const existing = await lstat(target).catch(() => null);
  if (existing?.isDirectory()) {
    // An empty folder in the way goes; one with files is the caller's to resolve.
    await rmdir(target).catch(() => {
      throw new GitError('invalidPath', `Cannot restore ${repoPath}: a non-empty folder is in the way.`);
    });
  }
  // Write beside and rename over: atomic for watchers, and a symlink in the way is replaced,
  // never written through.
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.agent-ledger-${randomBytes(4).toString('hex')}`);
  try {
    if (mode === '120000') await symlink(content.toString('utf8'), temp);
    else await writeFile(temp, content, { mode: mode === '100755' ? 0o755 : 0o644 });
    await rename(temp, target);
  } catch (ex) {
    await rm(temp, { force: true });
    throw ex;
  }
}
