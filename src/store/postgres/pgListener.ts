import type { Client } from 'pg';
import type { Notification } from 'pg';
import type { PgTarget } from './pgConnect';
import { CHANNEL, LedgerPgClient } from './pgConnect';

/** A commit announced on the channel: its seq and the engine that made it. */
export interface Announcement {
  seq: number;
  origin: string;
}

/**
 * The dedicated connection that LISTENs for commits. It reconnects by itself (backoff from
 * 250 ms to 5 s) and reports whether it is up, so the engine polls the clock while it is down and
 * once after it comes back (commits announced meanwhile were missed).
 */
export class PgListener {
  private client: Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private delay = 250;
  private stopped = false;
  private _up = false;

  constructor(
    private readonly target: PgTarget,
    private readonly onAnnouncement: (a: Announcement) => void,
    private readonly onState: (up: boolean) => void,
  ) {}

  get up(): boolean {
    return this._up;
  }

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new LedgerPgClient({ ...this.target.config, keepAlive: true });
    this.client = client;
    let failed = false;
    const fail = (): void => {
      if (failed) return;
      failed = true;
      this.down(client);
    };
    client.on('error', fail);
    client.on('end', fail);
    client.on('notification', (n: Notification) => {
      const [seq, origin] = (n.payload ?? '').split(' ');
      if (n.channel === CHANNEL && Number.isFinite(Number(seq)))
        this.onAnnouncement({ seq: Number(seq), origin: origin ?? '' });
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch {
      fail();
      return;
    }
    if (this.stopped || failed) return;
    this.delay = 250;
    this._up = true;
    this.onState(true);
  }

  private down(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    if (this._up) {
      this._up = false;
      this.onState(false);
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.connect(), this.delay);
    this.timer.unref();
    this.delay = Math.min(this.delay * 2, 5_000);
  }
}
