import type { LedgerEngine } from './ports/store';

/** How a wait ends early, and whether its attempt writes. */
export interface WaitOptions {
  signal?: AbortSignal;
  /**
   * The attempt may commit a write of its own: the commit seq is taken after it, so its own
   * commit does not wake the wait at once (a commit of another process between the attempt's read
   * and that moment waits for the next commit or the deadline).
   */
  attemptWrites?: boolean;
}

/**
 * The loop under every call that waits (bb_watch, events_subscribe, resources_watch,
 * get_my_task, get_pending_handoffs, pipeline_next_action): try, and when there is nothing yet,
 * wait for the next commit of any process (engine.waitForChange: a timer, no CPU, no lock held)
 * and try again, until something comes or `waitMs` passes. The commit seq is taken before each
 * try, so a commit that lands between the try and the wait ends the wait at once. The first try
 * runs even when `waitMs` is 0.
 */
export async function untilSomething<R>(
  engine: LedgerEngine,
  clock: () => number,
  waitMs: number,
  attempt: () => Promise<R | null>,
  options: WaitOptions = {},
): Promise<R | null> {
  const deadline = clock() + waitMs;
  for (;;) {
    let seen = engine.seq;
    const found = await attempt();
    if (found !== null) return found;
    if (options.attemptWrites) seen = engine.seq;
    const remaining = deadline - clock();
    if (remaining <= 0 || options.signal?.aborted) return null;
    const waited = await engine.waitForChange(seen, { timeoutMs: remaining, signal: options.signal });
    if (waited.timedOut) return null;
  }
}
