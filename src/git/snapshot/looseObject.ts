/**
 * Writing a commit object (and the trees of a snapshot, changedTree.ts) without a git process: the body is a few lines of text, so hashing
 * and deflating it here costs well under a millisecond where `git commit-tree` costs a process
 * start. The object is written the way git writes a loose object — a temporary file in its
 * fan-out folder, then linked to its name (an object that exists already is left alone) — and
 * is read back by git like any other.
 *
 * Returns null (the caller runs `git commit-tree`) where writing it here could differ from
 * git: the object format cannot be told from the tree id, or the objects folder is not a
 * plain folder.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { statOrNull } from './fileStat';
import * as path from 'node:path';
import { deflateSync } from 'node:zlib';

export interface CommitFields {
  tree: string;
  parent: string | null;
  /** `Name <email>` of the author and committer. */
  identity: string;
  message: string;
  /** Time of the commit (default now). */
  at?: Date;
}

/** The commit object's text, as `git commit-tree` writes it (without signature or encoding header). */
export function commitBody(fields: CommitFields): string {
  const at = fields.at ?? new Date();
  const stamp = `${Math.floor(at.getTime() / 1000)} ${timezone(at)}`;
  const parent = fields.parent ? `parent ${fields.parent}\n` : '';
  return `tree ${fields.tree}\n${parent}author ${fields.identity} ${stamp}\ncommitter ${fields.identity} ${stamp}\n\n${fields.message}\n`;
}

/** Writes the commit into `objectsDir` and returns its id, or null when git should write it. */
export async function writeCommitObject(objectsDir: string, fields: CommitFields): Promise<string | null> {
  const algorithm = objectAlgorithm(fields.tree);
  if (!algorithm || (fields.parent && fields.parent.length !== fields.tree.length)) return null;
  return writeLooseObject(objectsDir, 'commit', Buffer.from(commitBody(fields), 'utf8'), algorithm);
}

/** The hash of a repository whose object ids look like `id` (SHA-1: 40 hex digits, SHA-256: 64). */
export function objectAlgorithm(id: string): ObjectAlgorithm | null {
  return id.length === 40 ? 'sha1' : id.length === 64 ? 'sha256' : null;
}

export type ObjectAlgorithm = 'sha1' | 'sha256';

/** The id git gives an object of `type` with `body` (nothing written). */
export function objectId(type: 'blob' | 'tree' | 'commit', body: Buffer, algorithm: ObjectAlgorithm): string {
  return createHash(algorithm).update(`${type} ${body.length}\0`, 'latin1').update(body).digest('hex');
}

/**
 * Writes an object (a commit, a tree, a blob) into `objectsDir` as git writes a loose
 * one, unless it exists there already; returns its id, or null when the objects folder is not a
 * plain folder (git should write it).
 *
 * The file calls are synchronous: each is a few microseconds of metadata work on a small file,
 * where the same call through libuv's thread pool (4 threads, shared with every other file call)
 * costs a hand-off each way, which adds up over the hundred-odd calls of a snapshot.
 */
export async function writeLooseObject(
  objectsDir: string,
  type: 'blob' | 'tree' | 'commit',
  body: Buffer,
  algorithm: ObjectAlgorithm,
): Promise<string | null> {
  const object = Buffer.concat([Buffer.from(`${type} ${body.length}\0`, 'latin1'), body]);
  const id = createHash(algorithm).update(object).digest('hex');
  const folder = path.join(objectsDir, id.slice(0, 2));
  const file = path.join(folder, id.slice(2));
  if (!ensureFanOut(objectsDir, folder)) return null;
  if (statOrNull(file)) return id;
  const temporary = path.join(folder, `tmp_obj_agent_ledger_${randomBytes(6).toString('hex')}`);
  // Level 1 is git's default for loose objects (core.looseCompression).
  writeFileSync(temporary, deflateSync(object, { level: 1 }), { mode: 0o444 });
  try {
    linkSync(temporary, file);
  } catch (ex) {
    const code = (ex as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return id; // written meanwhile by another process: same bytes
    // File systems without hard links: git falls back to a rename the same way.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EXDEV' || code === 'EMLINK') {
      renameSync(temporary, file);
      return id;
    }
    throw ex;
  } finally {
    rmSync(temporary, { force: true });
  }
  return id;
}

/** `+hhmm` / `-hhmm` of the local time zone at `at`, as git prints it. */
function timezone(at: Date): string {
  const offset = -at.getTimezoneOffset();
  const abs = Math.abs(offset);
  return `${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/**
 * The fan-out folder (`objects/ab`), created when missing — after `git gc` most are — with the
 * permissions of the objects folder itself, which git gave the repository's sharing mode
 * (`core.sharedRepository`: group-writable, set-group-id), as git gives its fan-out folders.
 */
function ensureFanOut(objectsDir: string, folder: string): boolean {
  const existing = statOrNull(folder);
  if (existing) return existing.isDirectory();
  const objects = statOrNull(objectsDir);
  if (!objects?.isDirectory()) return false;
  try {
    mkdirSync(folder);
  } catch (ex) {
    if ((ex as NodeJS.ErrnoException).code !== 'EEXIST') throw ex;
    return statSync(folder).isDirectory();
  }
  chmodSync(folder, objects.mode & 0o7777);
  return true;
}
