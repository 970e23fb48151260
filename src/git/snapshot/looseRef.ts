/**
 * Pointing one of our own refs (`refs/agent-ledger/snapshots/<name>`) at a snapshot without a
 * git process, the way git's files backend does it: `<ref>.lock` created exclusively, the id
 * written, renamed over the ref. A ref being updated by someone else (its lock exists) fails
 * as `git update-ref` would.
 *
 * Returns false (the caller runs `git update-ref`) wherever git would do more than that: a
 * reftable repository, a reflog kept for these refs (`core.logAllRefUpdates=always`), or the
 * refs folder not created yet (git creates it with the repository's shared permissions).
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { GitError } from '../errors';
import { lstatOrNull, statOrNull } from './fileStat';

/** Synchronous file calls, as for loose objects (looseObject.ts): microseconds each, no thread-pool hand-off. */
export async function writeLooseRef(commonDir: string, ref: string, id: string): Promise<boolean> {
  const file = path.join(commonDir, ...ref.split('/'));
  const reftable = statOrNull(path.join(commonDir, 'reftable'));
  const reflogs = statOrNull(path.join(commonDir, 'logs', ...path.dirname(ref).split('/')));
  if (reftable || reflogs || !lstatOrNull(path.dirname(file))?.isDirectory()) return false;
  const lock = `${file}.lock`;
  let fd: number | undefined;
  try {
    fd = openSync(lock, 'wx', 0o666);
  } catch (ex) {
    if ((ex as NodeJS.ErrnoException).code === 'EEXIST')
      throw new GitError('locked', `${ref} is being updated by another process (${lock} exists).`);
    throw ex;
  }
  try {
    writeSync(fd, `${id}\n`);
    closeSync(fd);
    fd = undefined;
    renameSync(lock, file);
  } catch (ex) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // the write's error is the one to report
      }
    }
    rmSync(lock, { force: true });
    throw ex;
  }
  return true;
}
