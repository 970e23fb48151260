// What was going on during each slow write of the writeStall bench (`--trace`): the store's
// phases (lock wait, catch-up, journal append with its fdatasync), the background checkpoint's
// phase (worker preparing / install under the lock / discarding the retired files), the main
// thread's CPU and run-queue wait (/proc/self/task/<pid>/schedstat), GC pauses and event-loop
// use. Reaches into the store's internals by name: a benchmark's probe, not the product.
import * as fs from 'node:fs';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { BackgroundCheckpoint } from '../../src/store/embedded/backgroundCheckpoint';

interface Span {
  what: string;
  start: number;
  end: number;
}

/** The part of LedgerStore the probe wraps (private members, reached at run time). */
interface StoreInternals {
  session: object;
  writeAsync(...args: unknown[]): Promise<unknown>;
  journal: { append(...args: unknown[]): unknown };
  lock: { acquire(): Promise<void>; release(): void };
  catchUp(): void;
  installPrepared(tmp: string, seq: number): Promise<void>;
  withLock<T>(fn: () => T): Promise<T>;
  background?: { running: boolean };
}

export interface WriteSample {
  ms: number;
  report?: string;
}

export class WriteTrace {
  private readonly spans: Span[] = [];
  private readonly observer: PerformanceObserver;
  private begun = 0;
  private sched = [0, 0];
  private elu: EventLoopUtilization | undefined;

  constructor(
    store: StoreInternals,
    private readonly thresholdMs = 15,
  ) {
    this.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        this.spans.push({ what: 'gc', start: e.startTime, end: e.startTime + e.duration });
    });
    this.observer.observe({ entryTypes: ['gc'] });
    this.wrapSync(store.journal, 'append', 'append+fdatasync');
    this.wrapSync(store, 'catchUp', 'catch-up');
    this.wrapAsync(store.lock, 'acquire', 'lock wait');
    this.wrapAsync(store, 'writeAsync', 'in the store');
    this.wrapSync(store.lock, 'release', 'lock release');
    this.wrapSync(store.journal, 'prepare', 'journal prepare');
    this.wrapSync(store.session, 'exec', 'SQL');
    this.wrapAsync(store, 'withLock', 'install under the lock');
    const start = BackgroundCheckpoint.prototype.start;
    const started = (): void => {
      this.workerStart = performance.now();
    };
    const spans = this.spans;
    BackgroundCheckpoint.prototype.start = function (this: BackgroundCheckpoint) {
      if (!this.running) started();
      const at = performance.now();
      try {
        return start.call(this);
      } finally {
        spans.push({ what: 'worker start (new Worker)', start: at, end: performance.now() });
      }
    };
    const install = store.installPrepared.bind(store);
    // installPrepared is called when the worker's image is ready and resolves once the retired
    // files are discarded: worker phase before, install + discard during.
    store.installPrepared = async (tmp, seq) => {
      const start = performance.now();
      this.spans.push({ what: 'worker preparing', start: this.workerStart, end: start });
      this.workerStart = 0;
      try {
        return await install(tmp, seq);
      } finally {
        this.spans.push({ what: 'install + discard of retired files', start, end: performance.now() });
      }
    };
  }

  /** When the running worker started (0: none is preparing). */
  private workerStart = 0;

  begin(): void {
    this.begun = performance.now();
    this.sched = schedstat();
    this.elu = performance.eventLoopUtilization();
  }

  /** After the write: when slower than the threshold, keeps what it needs to say what overlapped it. */
  end(): void {
    const end = performance.now();
    if (end - this.begun < this.thresholdMs) return;
    const [run, wait] = schedstat();
    this.slowWrites.push({
      start: this.begun,
      end,
      onCpu: (run - this.sched[0]) / 1e6,
      waiting: (wait - this.sched[1]) / 1e6,
      active: performance.eventLoopUtilization(this.elu).active,
      worker: this.workerStart,
    });
  }

  private readonly slowWrites: {
    start: number;
    end: number;
    onCpu: number;
    waiting: number;
    active: number;
    worker: number;
  }[] = [];

  /**
   * One line per slow write. Called after the stream: GC entries reach the observer a moment
   * after the pause, so the overlaps are worked out at the end.
   */
  report(): string[] {
    return this.slowWrites.map((w) => {
      const overlapping = this.spans.filter((s) => s.end >= w.start && s.start <= w.end);
      const sums = new Map<string, number>();
      for (const s of overlapping)
        sums.set(s.what, (sums.get(s.what) ?? 0) + Math.min(s.end, w.end) - Math.max(s.start, w.start));
      const parts = [...sums].map(([what, ms]) => `${what} ${ms.toFixed(1)}`);
      if (w.worker !== 0 && !overlapping.some((s) => s.what === 'worker preparing'))
        parts.push(`worker preparing (for ${(w.end - w.worker).toFixed(0)} ms)`);
      return `${(w.end - w.start).toFixed(1)} ms at +${(w.start / 1000).toFixed(1)} s: main thread on CPU ${w.onCpu.toFixed(1)}, runnable and waiting for a CPU ${w.waiting.toFixed(1)}, event loop active ${w.active.toFixed(1)}; ${parts.join(', ') || 'nothing traced overlapped'}`;
    });
  }

  dispose(): void {
    this.observer.disconnect();
  }

  private wrapSync(target: object, name: string, what: string): void {
    const host = target as Record<string, (...args: unknown[]) => unknown>;
    const original = host[name].bind(target);
    host[name] = (...args: unknown[]) => {
      const start = performance.now();
      try {
        return original(...args);
      } finally {
        this.spans.push({ what, start, end: performance.now() });
      }
    };
  }

  private wrapAsync(target: object, name: string, what: string): void {
    const host = target as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const original = host[name].bind(target);
    host[name] = async (...args: unknown[]) => {
      const start = performance.now();
      try {
        return await original(...args);
      } finally {
        this.spans.push({ what, start, end: performance.now() });
      }
    };
  }
}

/** The main thread's time on a CPU and waiting for one, in ns. */
function schedstat(): [number, number] {
  try {
    const [run, wait] = fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return [run, wait];
  } catch {
    return [0, 0];
  }
}
