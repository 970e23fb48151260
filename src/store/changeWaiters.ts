import { DEFAULT_WAIT_MS } from './engine';
import type { WaitOptions, WaitResult } from './engine';

interface Waiter {
  afterSeq: number;
  finish(result: WaitResult): void;
}

/**
 * The calls waiting for a commit past some seq, for one engine. An engine calls `notify` whenever
 * it learns a newer seq (its own write, another process's through the journal or a NOTIFY) and
 * `closeAll` when it closes; waiters cost a timer each and no CPU.
 */
export class ChangeWaiters {
  private readonly waiting = new Set<Waiter>();

  /** True while someone waits (engines watch for other processes' writes only then, or when asked). */
  get active(): boolean {
    return this.waiting.size > 0;
  }

  /**
   * Waits for `notify(seq > afterSeq)`. `check` runs after the waiter is registered (so a notify
   * racing with it is never missed) and returns the seq known now.
   */
  wait(afterSeq: number, options: WaitOptions, check: () => Promise<number>): Promise<WaitResult> {
    const timeoutMs = Math.max(0, Math.min(options.timeoutMs ?? DEFAULT_WAIT_MS, 24 * 3600_000));
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<WaitResult>((resolve, reject) => {
      let lastKnown = afterSeq;
      const onAbort = (): void => {
        cleanup();
        reject(signal?.reason);
      };
      const cleanup = (): void => {
        this.waiting.delete(waiter);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        afterSeq,
        finish: (result) => {
          cleanup();
          resolve(result);
        },
      };
      this.waiting.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => waiter.finish({ seq: lastKnown, timedOut: true }), timeoutMs);
      check().then(
        (seq) => {
          lastKnown = Math.max(lastKnown, seq);
          if (seq > afterSeq && this.waiting.has(waiter)) waiter.finish({ seq, timedOut: false });
        },
        (err: unknown) => {
          if (!this.waiting.has(waiter)) return;
          cleanup();
          reject(err);
        },
      );
    });
  }

  /** Wakes every waiter whose `afterSeq` is below `seq`. */
  notify(seq: number): void {
    for (const waiter of [...this.waiting]) if (seq > waiter.afterSeq) waiter.finish({ seq, timedOut: false });
  }

  /** Ends every wait as timed out (the engine is closing). */
  closeAll(seq: number): void {
    for (const waiter of [...this.waiting]) waiter.finish({ seq, timedOut: true });
  }
}
