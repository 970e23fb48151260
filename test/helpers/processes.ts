/**
 * Waiting on real processes in tests: whether a pid is alive, and polling until something is
 * true. Plain Node (no `vscode`), so the editor's in-host tests bundle it too.
 */

/** True while a process with this pid exists (a zombie not reaped yet included). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (ex) {
    return (ex as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Polls `probe` every 100 ms until it returns a truthy value (returned), or fails naming `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 45_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
