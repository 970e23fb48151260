/**
 * The persistent private index a snapshot starts from (one per work tree, in its git dir).
 *
 * A snapshot needs an index whose stat data is fresh, so that git reads only the files that
 * changed, and an untracked cache, so that it opens only the folders that changed. The user's
 * index must never be written, and a throw-away copy of it loses both every time. So the copy
 * is kept: `agent-ledger-snapshot-index-<key>`, where `<key>` names the exact user index it was
 * copied from (device, inode, size, mtime and trailing checksum). Its entries are therefore
 * always the user's entries; only git's own refresh (stat data, untracked cache) ever rewrites
 * it. Untracked files a snapshot adds go into a per-snapshot file and never into it, so a file
 * ignored later cannot linger. When the user's index changes in any way (`git add`, commit,
 * checkout, stash, a refresh) the key changes and the next snapshot copies it afresh.
 *
 * Each snapshot works on a hard link of it (`agent-ledger-snapshot-work-<random>`): git
 * replaces an index by renaming a new file over it, so what the snapshot's git commands write
 * never reaches the kept file, and another process's snapshot can share it (or delete it after
 * the user's index changed) without a lock. The refreshed version is published by renaming a
 * link of it over the kept file.
 *
 * The file calls of a lease are synchronous: a dozen metadata calls of microseconds each, where
 * each hand-off to libuv's thread pool costs more than the call (looseObject.ts says how much).
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  linkSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { statOrNull } from './fileStat';
import * as path from 'node:path';
import type { GitRepo } from '../gitRepo';

const keptPrefix = 'snapshot-index-';
const workPrefix = 'snapshot-work-';
/** A work file or seed older than this was left by a process that died mid-snapshot. */
const abandonedAfterMs = 10 * 60 * 1000;

/** The private index file one snapshot works on; `release` deletes it. */
export interface PrivateIndexLease {
  /** The per-snapshot file (`GIT_INDEX_FILE`), a link of the kept index until git rewrites it. */
  readonly file: string;
  /** The kept index it links to (names one state of the user's index). */
  readonly kept: string;
  /** Makes what git wrote to `file` so far (stat data, untracked cache) the kept index. */
  publish(): Promise<void>;
  /** Deletes the kept index: git could not read it (damaged, truncated, half-written). */
  discard(): Promise<void>;
  release(): Promise<void>;
}

interface UserIndex {
  key: string;
  /** Entry count from the header ("DIRC", version, count), to check a kept index against. */
  entries: number;
}

/**
 * A lease on the kept private index matching the user's index, copied from it first when
 * there is none yet. Null when the user has no index (a fresh repository): the caller starts
 * from an empty one.
 */
export async function leasePrivateIndex(repo: GitRepo): Promise<PrivateIndexLease | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const kept = await keptIndexFor(repo);
    if (!kept) return null;
    const work = repo.privatePath(`${workPrefix}${randomBytes(8).toString('hex')}`);
    try {
      linkSync(kept, work);
    } catch (ex) {
      // Deleted between the two steps by a process that saw a newer user index: look again.
      if ((ex as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw ex;
    }
    const { ino } = statSync(work);
    return {
      file: work,
      kept,
      publish: async () => {
        const now = statOrNull(work);
        if (!now || now.ino === ino) return; // git did not rewrite it
        const staged = `${kept}.${randomBytes(4).toString('hex')}.tmp`;
        linkSync(work, staged);
        try {
          renameSync(staged, kept);
        } catch (ex) {
          rmSync(staged, { force: true });
          throw ex;
        }
        trust(kept); // what git itself just wrote
      },
      discard: async () => {
        trusted.delete(kept);
        await rm(kept, { force: true });
      },
      release: async () => {
        rmSync(work, { force: true });
        rmSync(`${work}.lock`, { force: true });
      },
    };
  }
  return null;
}

/** The kept index for the user's index as it is now, copied from it when missing or not matching. */
async function keptIndexFor(repo: GitRepo): Promise<string | null> {
  const userFile = path.join(repo.gitDir, 'index');
  let fd: number;
  try {
    fd = openSync(userFile, 'r');
  } catch (ex) {
    if ((ex as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw ex;
  }
  try {
    const user = describe(fd);
    if (!user) return null; // not an index git wrote whole: let git read it the slow way
    const kept = repo.privatePath(`${keptPrefix}${user.key}`);
    const header = readHeader(kept);
    if (header && header.entries === user.entries && isIntact(kept)) return kept;
    await seed(repo, fd, kept);
    trust(kept);
    await removeOthers(repo, path.basename(kept));
    return kept;
  } finally {
    closeSync(fd);
  }
}

/**
 * Kept indexes this process knows are whole (it copied them or git wrote them), by identity.
 * git does not check an index's checksum when it reads one, and reads a truncated or damaged
 * file without a word — as an index with other entries. So a kept index is used only once it
 * is known: one this process wrote, or one whose trailing checksum is right (read once per new
 * version, e.g. after another process refreshed it).
 */
const trusted = new Map<string, string>();

function identity(file: string): string | null {
  try {
    const st = statSync(file, { bigint: true });
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return null;
  }
}

function trust(file: string): void {
  const id = identity(file);
  if (id) trusted.set(file, id);
}

/** Whether `file` is known whole: trusted as it is, or its SHA-1 / SHA-256 trailer matches its content. */
function isIntact(file: string): boolean {
  const id = identity(file);
  if (!id) return false;
  if (trusted.get(file) === id) return true;
  let content: Buffer;
  try {
    content = readFileSync(file);
  } catch {
    return false;
  }
  const matches = (algorithm: 'sha1' | 'sha256', size: number) => {
    if (content.length < 12 + size) return false;
    const trailer = content.subarray(content.length - size);
    return (
      !trailer.every((b) => b === 0) &&
      createHash(algorithm)
        .update(content.subarray(0, content.length - size))
        .digest()
        .equals(trailer)
    );
  };
  if (!matches('sha1', 20) && !matches('sha256', 32)) return false;
  trusted.set(file, id);
  return true;
}

/** Names this exact file: a rewrite by git is a new file (new inode, mtime) with a new trailing checksum. */
function describe(fd: number): UserIndex | null {
  const st = fstatSync(fd, { bigint: true });
  if (st.size < 12n + 20n) return null;
  const head = Buffer.alloc(12);
  readSync(fd, head, 0, 12, 0);
  if (head.toString('latin1', 0, 4) !== 'DIRC') return null;
  const tail = Buffer.alloc(32);
  readSync(fd, tail, 0, 32, Number(st.size) - 32);
  const key = createHash('sha256')
    .update(`${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}:`)
    .update(tail)
    .digest('hex')
    .slice(0, 24);
  return { key, entries: head.readUInt32BE(8) };
}

function readHeader(file: string): { entries: number } | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(12);
    const bytesRead = readSync(fd, head, 0, 12, 0);
    if (bytesRead < 12 || head.toString('latin1', 0, 4) !== 'DIRC') return null;
    return { entries: head.readUInt32BE(8) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies the user's index (from the open handle, so the copy is the file the key names) to
 * `kept`. Racy-git: git re-reads an entry whose mtime is not older than the index file's own
 * mtime; a fresh copy would look newer than the original and hide a same-second edit, so the
 * copy gets the original's mtime, rounded down (a superset of the racy entries, never fewer).
 */
async function seed(repo: GitRepo, fd: number, kept: string): Promise<void> {
  const st = fstatSync(fd);
  const content = Buffer.alloc(st.size);
  readSync(fd, content, 0, st.size, 0);
  const staged = `${kept}.${randomBytes(4).toString('hex')}.tmp`;
  const seconds = Math.floor(st.mtimeMs / 1000);
  try {
    await writeFile(staged, content, { mode: 0o600 });
    await utimes(staged, seconds, seconds);
    // Index format 4 compresses each path against the one before: a smaller file for every
    // later read and write.
    // Entries that look racy are smudged by this rewrite: re-read later, never missed.
    await repo
      .run([...repo.noHooks(), '-c', 'core.splitIndex=false', 'update-index', '--index-version', '4'], {
        env: { GIT_INDEX_FILE: staged },
      })
      .then(() => utimes(staged, seconds, seconds))
      .catch(() => rm(`${staged}.lock`, { force: true }));
    await rename(staged, kept);
  } finally {
    await rm(staged, { force: true });
  }
}

/**
 * Deletes kept indexes of earlier user indexes, and work files or temporary files left by a
 * process that died. A process still using an older kept index holds its own link to it.
 */
async function removeOthers(repo: GitRepo, current: string): Promise<void> {
  const ours = path.basename(repo.privatePath(''));
  let names: string[];
  try {
    names = await readdir(repo.gitDir);
  } catch {
    return;
  }
  const now = Date.now();
  await Promise.all(
    names
      .filter((n) => n.startsWith(ours) && n !== current)
      .map(async (n) => {
        const rest = n.slice(ours.length);
        const file = path.join(repo.gitDir, n);
        const isKept = rest.startsWith(keptPrefix) && !rest.endsWith('.tmp') && !rest.endsWith('.lock');
        // Work files, temporary copies and the old per-snapshot indexes (`index-<hex>`): only once abandoned.
        const isLeftover =
          rest.startsWith(workPrefix) || rest.startsWith(keptPrefix) || /^index-[0-9a-f]{16}(\.lock)?$/.test(rest);
        if (!isKept && !isLeftover) return;
        if (!isKept) {
          const st = await stat(file).catch(() => null);
          if (!st || now - st.mtimeMs < abandonedAfterMs) return;
        }
        await rm(file, { force: true });
      }),
  );
}
