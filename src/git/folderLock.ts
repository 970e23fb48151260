import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitError } from './errors';

/** A lock left by a process that no longer exists, or held for longer than any worktree takes. */
const staleAfterMs = 10 * 60 * 1000;

/**
 * Runs `fn` while holding a cross-process lock: the folder `lock` (mkdir is atomic) holding
 * the owner's pid. A lock whose owner died is taken over at once.
 */
export async function withFolderLock<T>(lock: string, fn: () => Promise<T>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'owner'), JSON.stringify({ pid: process.pid, at: Date.now() }));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (isStale(lock)) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new GitError('locked', `${lock} is held by another Agent Ledger process; try again when it is done.`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function isStale(lock: string): boolean {
  try {
    const owner = JSON.parse(fs.readFileSync(path.join(lock, 'owner'), 'utf8')) as { pid: number; at: number };
    if (Date.now() - owner.at > staleAfterMs) return true;
    process.kill(owner.pid, 0);
    return false;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return true; // the owner died
    if ((err as NodeJS.ErrnoException).code === 'EPERM') return false; // alive, another user's
    // No owner file yet: a fresh lock being written, or one whose writer died right after mkdir.
    try {
      return Date.now() - fs.statSync(lock).mtimeMs > 10_000;
    } catch {
      return false;
    }
  }
}
