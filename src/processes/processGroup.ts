/**
 * Signals to a whole process group. Every supervised process leads its own group (spawned
 * detached: `setsid`), so an agent CLI, the MCP servers and shells it started, and anything
 * those started, are stopped together and none is left holding a port or a worktree.
 */

const posix = process.platform !== 'win32';

/** Sends `signal` to the group led by `pid` (to `pid` alone on Windows). False when nothing received it. */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(posix ? -pid : pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while any process of the group led by `pid` exists (zombies included until reaped). */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(posix ? -pid : pid, 0);
    return true;
  } catch (ex) {
    // EPERM: it exists but belongs to someone else.
    return (ex as NodeJS.ErrnoException).code === 'EPERM';
  }
}
