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
import { lstat, open, rename, rm, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { GitError } from './errors';

export async function writeLooseRef(commonDir: string, ref: string, id: string): Promise<boolean> {
  const file = path.join(commonDir, ...ref.split('/'));
  const [reftable, reflogs, folder] = await Promise.all([
    stat(path.join(commonDir, 'reftable')).catch(() => null),
    stat(path.join(commonDir, 'logs', ...path.dirname(ref).split('/'))).catch(() => null),
    lstat(path.dirname(file)).catch(() => null),
  ]);
  if (reftable || reflogs || !folder?.isDirectory()) return false;
  const lock = `${file}.lock`;
  let handle;
  try {
    handle = await open(lock, 'wx', 0o666);
  } catch (ex) {
    if ((ex as NodeJS.ErrnoException).code === 'EEXIST') throw new GitError('locked', `${ref} is being updated by another process (${lock} exists).`);
    throw ex;
  }
  try {
    await handle.writeFile(`${id}\n`);
    await handle.close();
    handle = undefined;
    await rename(lock, file);
  } catch (ex) {
    await handle?.close().catch(() => undefined);
    await rm(lock, { force: true });
    throw ex;
  }
  return true;
}
