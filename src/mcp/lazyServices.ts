import type { Services } from '../app/services';

/**
 * A workspace's services as an MCP server holds them: opened on first use, not at start-up, so a
 * client sees the tools listed before the store, the sql.js WebAssembly module and Git are loaded
 * (docs/performance.md). The first call that needs them pays for the opening; a failed opening is
 * that call's error and the next call tries again.
 */
export class LazyServices {
  private opening: Promise<Services> | undefined;
  private opened: Services | undefined;
  private readonly waiting: ((services: Services) => void)[] = [];

  constructor(private readonly open: () => Promise<Services>) {}

  /** The services, opening them if nobody has yet. */
  get(): Promise<Services> {
    if (!this.opening) {
      const opening = this.open().then((services) => {
        this.opened = services;
        for (const run of this.waiting.splice(0)) run(services);
        return services;
      });
      opening.catch(() => {
        if (this.opening === opening) this.opening = undefined;
      });
      this.opening = opening;
    }
    return this.opening;
  }

  /** The services if they are open, without opening them. */
  current(): Services | undefined {
    return this.opened;
  }

  /** Runs `run` once the services are open (now if they are), without opening them. */
  whenOpen(run: (services: Services) => void): void {
    if (this.opened) run(this.opened);
    else this.waiting.push(run);
  }

  /** Closes what was opened; waits for an opening under way so nothing is left open. */
  async dispose(close: (services: Services) => Promise<void>): Promise<void> {
    const pending = this.opening;
    if (!pending) return;
    const services = await pending.catch(() => undefined);
    if (services) await close(services);
  }
}
