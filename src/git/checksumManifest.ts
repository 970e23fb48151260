/**
 * MD5 manifests of a folder that is not a Git repository (the tracking contract's checksum fallback).
 * Honours `.gitignore` files at every depth the way Git does, and skips what is never the
 * user's work (`.git`, `node_modules`, `.agent-ledger`).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import * as path from 'node:path';
import ignore from 'ignore';
import type { FileChanges, RenamedFile } from '../core/ports/workspaceTruth';
import { ledgerFolder } from '../core/ledgerFiles';

/** `[md5, size, mtimeMs]`: arrays keep a 100,000-file manifest compact. */
export type ManifestEntry = [md5: string, size: number, mtimeMs: number];

export interface Manifest {
  version: 1;
  id: string;
  label: string;
  /** ISO time of the snapshot. */
  takenAt: string;
  /** Epoch ms when the scan began: the reference of the racy-file rule below. */
  scannedAtMs: number;
  /** Workspace-relative `/` paths. */
  files: Record<string, ManifestEntry>;
}

/** Reads a file (or a symlink's target text) and returns its MD5 in hex. */
export type HashFile = (absolutePath: string, isSymlink: boolean) => Promise<string>;

const skippedNames = new Set(['.git', 'node_modules', ledgerFolder]);

/**
 * A file modified this close to the previous scan may have changed again within the clock's
 * resolution after it was hashed, with the same size and mtime (racy-git), so it is re-hashed.
 */
const racyWindowMs = 2000;

/** Files hashed at once: enough to keep the disk busy, few enough to stay under fd limits. */
const concurrency = 32;

export const md5File: HashFile = async (absolutePath, isSymlink) => {
  const hash = createHash('md5');
  if (isSymlink) return hash.update(await readlink(absolutePath)).digest('hex');
  for await (const chunk of createReadStream(absolutePath)) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

interface IgnoreLevel {
  /** The folder of the `.gitignore`, relative to the root, '' or ending in '/'. */
  base: string;
  rules: ignore.Ignore;
}

const caseInsensitive = process.platform === 'win32' || process.platform === 'darwin';

/** Git's precedence: the deepest `.gitignore` with a matching rule (or `!rule`) decides. */
function isIgnored(levels: readonly IgnoreLevel[], relative: string, isDir: boolean): boolean {
  for (let i = levels.length - 1; i >= 0; i--) {
    const { base, rules } = levels[i];
    const result = rules.test(relative.slice(base.length) + (isDir ? '/' : ''));
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

export interface FoundFile {
  relative: string;
  absolute: string;
}

/** Every file and symlink under `root` that is neither skipped nor ignored. */
export async function listFiles(root: string): Promise<FoundFile[]> {
  const found: FoundFile[] = [];
  const walk = async (dir: string, base: string, levels: IgnoreLevel[]): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    if (entries.some((e) => e.name === '.gitignore' && e.isFile())) {
      const text = await readFile(path.join(dir, '.gitignore'), 'utf8');
      levels = [...levels, { base, rules: ignore({ ignorecase: caseInsensitive }).add(text) }];
    }
    const subfolders: Promise<void>[] = [];
    for (const entry of entries) {
      if (skippedNames.has(entry.name)) continue;
      const relative = base + entry.name;
      const isDir = entry.isDirectory();
      if (!isDir && !entry.isFile() && !entry.isSymbolicLink()) continue; // sockets, fifos, devices
      if (isIgnored(levels, relative, isDir)) continue;
      const absolute = path.join(dir, entry.name);
      if (isDir) subfolders.push(walk(absolute, `${relative}/`, levels));
      else found.push({ relative, absolute });
    }
    await Promise.all(subfolders);
  };
  await walk(root, '', []);
  return found;
}

/**
 * Scans `root` into a manifest. Files whose size and mtime match `base` (and were not modified
 * within the racy window of its scan) keep their hash without being read.
 */
export async function scanManifest(
  root: string,
  meta: { id: string; label: string },
  base: Manifest | undefined,
  hashFile: HashFile,
): Promise<Manifest> {
  const scannedAtMs = Date.now();
  const takenAt = new Date(scannedAtMs).toISOString();
  const found = await listFiles(root);
  const files: Record<string, ManifestEntry> = {};
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < found.length) {
      const { relative, absolute } = found[next++];
      const stats = await lstat(absolute).catch(() => null);
      if (!stats) continue; // deleted while scanning
      const size = stats.size;
      const mtimeMs = Math.trunc(stats.mtimeMs);
      const known = base?.files[relative];
      const reusable =
        known && known[1] === size && known[2] === mtimeMs && mtimeMs <= base!.scannedAtMs - racyWindowMs;
      const md5 = reusable ? known[0] : await hashFile(absolute, stats.isSymbolicLink());
      files[relative] = [md5, size, mtimeMs];
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, found.length) }, worker));
  return { version: 1, id: meta.id, label: meta.label, takenAt, scannedAtMs, files };
}

const emptyMd5 = 'd41d8cd98f00b204e9800998ecf8427e';

/**
 * Added, modified and deleted files from `from` to `to`; a deleted and an added file with the
 * same non-empty content are a rename (an empty file says nothing about where it came from).
 */
export function diffManifests(from: Manifest, to: Manifest): FileChanges {
  const added: string[] = [];
  const modified: string[] = [];
  const deleted: string[] = [];
  for (const [file, entry] of Object.entries(to.files)) {
    const before = from.files[file];
    if (!before) added.push(file);
    else if (before[0] !== entry[0]) modified.push(file);
  }
  for (const file of Object.keys(from.files)) if (!to.files[file]) deleted.push(file);

  const addedByHash = new Map<string, string[]>();
  for (const file of added) {
    const md5 = to.files[file][0];
    if (md5 !== emptyMd5) addedByHash.set(md5, [...(addedByHash.get(md5) ?? []), file]);
  }
  const renamed: RenamedFile[] = [];
  const renamedFrom = new Set<string>();
  const renamedTo = new Set<string>();
  for (const file of deleted) {
    const candidates = addedByHash.get(from.files[file][0]);
    if (!candidates?.length) continue;
    // Prefer a move that keeps the file name, then the first by path.
    const index = Math.max(
      0,
      candidates.findIndex((c) => path.posix.basename(c) === path.posix.basename(file)),
    );
    const [to] = candidates.splice(index, 1);
    renamed.push({ from: file, to });
    renamedFrom.add(file);
    renamedTo.add(to);
  }
  const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return {
    added: added.filter((f) => !renamedTo.has(f)).sort(byCodeUnits),
    modified: modified.sort(byCodeUnits),
    deleted: deleted.filter((f) => !renamedFrom.has(f)).sort(byCodeUnits),
    renamed: renamed.sort((a, b) => byCodeUnits(a.from, b.from)),
  };
}
