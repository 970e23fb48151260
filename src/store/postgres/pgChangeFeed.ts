import { Emitter } from '../../core/emitter';
import type { Event } from '../../core/emitter';
import type { StoreChange } from '../../core/ports/store';
import { ChangeWaiters } from '../changeWaiters';
import type { WaitOptions, WaitResult } from '../engine';
import type { PgTarget } from './pgConnect';
import { PgListener } from './pgListener';

/**
 * What one PostgreSQL engine knows of the ledger's commit seq, and who hears when it grows: its
 * own commits, announcements on the LISTEN connection (started by the first wait or listener),
 * and polls of the clock — every `pollMs` while LISTEN is down, once when it comes back (commits
 * announced meanwhile were missed), every 30 s while it is up as a safety net.
 */
export class PgChangeFeed {
  private readonly waiters = new ChangeWaiters();
  private readonly _onDidChange = new Emitter<StoreChange>();
  private listener: PgListener | undefined;
  private poll: NodeJS.Timeout | undefined;
  private _seq = 0;
  private closed = false;

  constructor(
    private readonly target: PgTarget,
    /** This engine's mark in announcements (to tell its own commits from others'). */
    private readonly origin: string,
    /** Reads the clock once (polls). */
    private readonly readSeq: () => Promise<number>,
    /** Reads the clock, retrying while the server is out of reach (a wait's first check). */
    private readonly readSeqRetrying: () => Promise<number>,
    private readonly pollMs: number,
  ) {}

  get seq(): number {
    return this._seq;
  }

  readonly onDidChange: Event<StoreChange> = (listener) => {
    this.watch();
    return this._onDidChange.event(listener);
  };

  /** Records a seq learned from a commit, an announcement or a poll; tells listeners and waiters. */
  learn(seq: number, external: boolean): void {
    if (seq <= this._seq || this.closed) return;
    const from = this._seq;
    this._seq = seq;
    this._onDidChange.fire({ fromSeq: from, toSeq: seq, external });
    this.waiters.notify(seq);
  }

  wait(afterSeq: number, options: WaitOptions): Promise<WaitResult> {
    this.watch();
    return this.waiters.wait(afterSeq, options, async () => {
      this.learn(await this.readSeqRetrying(), true);
      return this._seq;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiters.closeAll(this._seq);
    if (this.poll) clearTimeout(this.poll);
    await this.listener?.stop();
    this._onDidChange.dispose();
  }

  private watch(): void {
    if (this.listener || this.closed) return;
    this.listener = new PgListener(
      this.target,
      (a) => this.learn(a.seq, a.origin !== this.origin),
      (up) => {
        if (up) void this.pollOnce();
        this.schedulePoll();
      },
    );
    this.listener.start();
    this.schedulePoll();
  }

  private schedulePoll(): void {
    if (this.poll) clearTimeout(this.poll);
    if (this.closed) return;
    const every = this.listener?.up ? 30_000 : this.pollMs;
    this.poll = setTimeout(() => void this.pollOnce().finally(() => this.schedulePoll()), every);
    this.poll.unref();
  }

  private async pollOnce(): Promise<void> {
    if (this.closed) return;
    try {
      this.learn(await this.readSeq(), true);
    } catch {
      // The server is out of reach: the next poll tries again.
    }
  }
}
