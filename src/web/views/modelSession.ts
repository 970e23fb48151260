import { errorMessage } from '../../core/errors';
import { coalesced } from '../../views/coalesced';
import type { ViewContext, ViewSession } from '../viewSession';

/**
 * A view whose page shows one model, read again on every change of the ledger (several changes
 * in a burst: at most two reads) and sent only when what the page shows changed. `handle`
 * answers the view's own messages (true: handled); `ready` and `refresh` send the model.
 */
export class ModelSession implements ViewSession {
  private ready = false;
  private posted = '';
  private readonly reload: () => void;

  constructor(
    protected readonly ctx: ViewContext,
    protected readonly read: () => Promise<{ type: string }>,
    private readonly handle: (message: { type: string } & Record<string, unknown>) => Promise<boolean> = async () =>
      false,
  ) {
    this.reload = coalesced(
      () => this.load(false),
      (err) => ctx.post({ type: 'error', message: errorMessage(err) }),
    );
  }

  async receive(message: { type: string } & Record<string, unknown>): Promise<void> {
    if (message.type === 'ready' || message.type === 'refresh') {
      this.ready = true;
      await this.load(true);
      return;
    }
    if (!(await this.handle(message))) this.ctx.log(`unknown message ${JSON.stringify(message.type)}`);
  }

  changed(): void {
    if (this.ready) this.reload();
  }

  dispose(): void {
    this.ready = false;
  }

  private async load(force: boolean): Promise<void> {
    const message = await this.read();
    const json = JSON.stringify(message);
    if (!force && json === this.posted) return;
    this.posted = json;
    this.ctx.post(message);
  }
}
