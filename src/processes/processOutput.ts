/**
 * Everything a running process prints: counted, framed into redacted lines, appended to its log,
 * its last lines kept for an error summary, and cut off at the output budget.
 */
import { LineFramer } from './lineFramer';
import type { FramedLine, Redactor } from './lineFramer';
import { LogWriter } from './logFile';

export interface ProcessOutputOptions {
  logFile: string;
  redactor: Redactor;
  /** Budget of stdout + stderr bytes; past it nothing more is logged and `onLimit` is called once. */
  maxOutputBytes?: number;
  tailLines: number;
  /** Called on every chunk (the idle timer restarts). */
  onActivity(): void;
  /** Called once when the budget is exceeded. */
  onLimit(): void;
  /** How long a partial line may wait for its newline before it is written anyway. */
  partialFlushMs?: number;
}

type Stream = 'stdout' | 'stderr';

export class ProcessOutput {
  readonly log: LogWriter;
  readonly bytes = { stdout: 0, stderr: 0 };
  lastOutputAt: number | null = null;
  private readonly framers: Record<Stream, LineFramer>;
  private readonly tailRing: string[] = [];
  /** True once the budget is spent: later output is counted but not logged. */
  private cutOff = false;
  private ended = false;
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ProcessOutputOptions) {
    this.log = new LogWriter(options.logFile);
    this.framers = { stdout: new LineFramer(options.redactor), stderr: new LineFramer(options.redactor) };
  }

  /** A new output budget (undefined: none); already exceeded, the output is cut off at once. */
  setBudget(maxOutputBytes: number | undefined): void {
    this.options.maxOutputBytes = maxOutputBytes;
    if (maxOutputBytes === undefined || this.cutOff || this.ended) return;
    if (this.bytes.stdout + this.bytes.stderr > maxOutputBytes) this.cutOffNow(maxOutputBytes);
  }

  /** A chunk read from the child. */
  data(stream: Stream, chunk: Buffer): void {
    this.bytes[stream] += chunk.length;
    this.lastOutputAt = Date.now();
    this.options.onActivity();
    if (this.cutOff || this.ended) return;
    const budget = this.options.maxOutputBytes;
    const used = this.bytes.stdout + this.bytes.stderr;
    if (budget !== undefined && used > budget) {
      // Log what still fits, then nothing more.
      const fits = chunk.length - (used - budget);
      if (fits > 0) this.write(stream, this.framers[stream].push(chunk.subarray(0, fits)));
      this.cutOffNow(budget);
      return;
    }
    this.write(stream, this.framers[stream].push(chunk));
    this.scheduleFlush();
  }

  /** The last lines of both streams, in the order written. */
  tail(): string[] {
    return [...this.tailRing];
  }

  /** Writes what is still buffered and closes the log. `final` notes go in before it closes. */
  end(final?: { message: string; data: Record<string, unknown> }): void {
    if (this.ended) return;
    clearTimeout(this.flushTimer);
    if (!this.cutOff) this.flushAll(true);
    this.ended = true;
    if (final) this.log.meta(final.message, final.data);
    this.log.close();
  }

  private cutOffNow(budget: number): void {
    // A held-back tail that could have become a secret is dropped with the rest.
    this.flushAll(false);
    this.cutOff = true;
    this.log.meta(`output limit of ${budget} bytes reached: the rest of the output is not logged`, {
      limit: 'outputBytes',
      maxOutputBytes: budget,
    });
    this.options.onLimit();
  }

  private flushAll(atEnd: boolean): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      const framer = this.framers[stream];
      this.write(stream, atEnd ? framer.end() : framer.flushPartial());
    }
  }

  private write(stream: Stream, lines: FramedLine[]): void {
    if (lines.length === 0) return;
    this.log.lines(stream, lines);
    for (const line of lines) {
      // A line flushed early and its continuation are one line for a person reading the summary.
      this.tailRing.push(line.text);
      if (this.tailRing.length > this.options.tailLines) this.tailRing.shift();
    }
  }

  private scheduleFlush(): void {
    if (this.flushTimer || !(this.framers.stdout.hasPartial || this.framers.stderr.hasPartial)) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      if (!this.ended && !this.cutOff) this.flushAll(false);
    }, this.options.partialFlushMs ?? 200);
    this.flushTimer.unref();
  }
}
