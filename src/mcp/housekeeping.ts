import { errorMessage } from '../core/errors';

/** One job of the housekeeping: what the log names it, and the run. */
export type HousekeepingJob = readonly [what: string, run: () => Promise<unknown>];

/**
 * The retention jobs a server runs while its ledger is open (the events log's retention rule, the
 * purge of expired blackboard entries and of open contract-net calls whose task ended): once at
 * start, then every `intervalMs`, one round at a time, the timer never keeping the process up. A
 * job's failure is logged and the round goes on. `stop()` ends the timer and waits for the round
 * in flight, so a server closing its ledger right after it opened (a client that came and went)
 * never runs a job on a closed store.
 */
export class Housekeeping {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly jobs: readonly HousekeepingJob[],
    private readonly log: (line: string) => void,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.stopped || this.timer) return;
    this.run();
    this.timer = setInterval(() => this.run(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.round;
  }

  private run(): void {
    if (this.stopped || this.round) return;
    this.round = (async () => {
      for (const [what, job] of this.jobs) {
        if (this.stopped) return;
        await job().catch((err: unknown) => this.log(`${what}: ${errorMessage(err)}`));
      }
    })().finally(() => (this.round = undefined));
  }
}
