import type { LedgerEngine } from './ports/store';

/**
 * The loop of every call that waits (resources_watch, events_subscribe): try, and when there is
 * nothing yet, wait for the next commit of any process (engine.waitForChange: a timer, no CPU,
 * no lock held) and try again, until something comes or `timeoutMs` passes. The commit seq is
 * taken before each try, so a commit that lands between the try and the wait ends the wait at once.
 */
export async function untilSomething<R>(
  engine: LedgerEngine,
  clock: () => number,
  timeoutMs: number,
  attempt: () => Promise<R | null>,
  signal?: AbortSignal,
): Promise<R | null> {
  const deadline = clock() + timeoutMs;
  for (;;) {
    const seen = engine.seq;
    const found = await attempt();
    if (found !== null) return found;
    const remaining = deadline - clock();
    if (remaining <= 0 || signal?.aborted) return null;
    const waited = await engine.waitForChange(seen, { timeoutMs: remaining, signal });
    if (waited.timedOut) return null;
  }
}
