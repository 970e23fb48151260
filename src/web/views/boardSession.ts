import { parseId, taskKey } from '../../core/ids';
import { LedgerError } from '../../core/errors';
import type { BoardModel, BoardWebviewMessage } from '../../shared/protocol';
import { BoardDeltas } from '../../views/boardDeltas';
import { coalesced } from '../../views/coalesced';
import type { Services } from '../../app/services';
import type { LiveBoard, ViewContext, ViewSession } from '../viewSession';
import { Emitter } from '../../core/emitter';
import { planRunView } from '../../views/planRunModel';
import { steerFromPage } from './simpleSessions';

/** The Board read once per change of the ledger for every page that shows it. */
export function liveBoard(
  services: Services,
  folder: { name: string; root: string },
  log: (l: string) => void,
): LiveBoard {
  let model: BoardModel | undefined;
  let reading: Promise<BoardModel> | undefined;
  const emitter = new Emitter<BoardModel>();
  const read = async (): Promise<BoardModel> => {
    const snapshot = await services.board.board();
    const plans = (await services.planRuns.active()).map(planRunView);
    model = { folder: folder.root, folderName: folder.name, ...snapshot, plans };
    emitter.fire(model);
    return model;
  };
  const refresh = coalesced(
    async () => {
      reading = read();
      await reading;
    },
    (err) => log(`board refresh failed: ${err instanceof Error ? err.message : String(err)}`),
  );
  return {
    current: () => (model ? Promise.resolve(model) : (reading ??= read())),
    onModel: (listener) => emitter.event(listener),
    refresh,
  };
}

/** The Board in a page: the whole model after `ready`, then deltas; assign, cancel and reviews as the person. */
export class BoardSession implements ViewSession {
  private readonly deltas = new BoardDeltas();
  private ready = false;
  private readonly listening: { dispose(): void };

  constructor(private readonly ctx: ViewContext) {
    this.listening = ctx.board.onModel((model) => this.send(model));
  }

  async receive(raw: { type: string }): Promise<void> {
    const message = raw as BoardWebviewMessage;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.deltas.reset();
        this.send(await this.ctx.board.current());
        return;
      case 'openCard': {
        const model = await this.ctx.board.current();
        const card = model.cards.find((c) => c.id === message.id);
        if (card?.pipeline) this.ctx.navigate({ view: 'pipeline', workspace: card.pipeline });
        else this.ctx.navigate({ view: 'taskDetail', taskId: card?.taskId ?? parseId('task', message.id) });
        return;
      }
      case 'assign':
        await this.act(message.taskId, `assigned to ${message.agent}`, () =>
          this.ctx.services.tasks.update({ id: message.taskId, assignee: message.agent }),
        );
        return;
      case 'cancel':
        await this.act(message.taskId, 'cancelled', () =>
          this.ctx.services.tasks.update({ id: message.taskId, status: 'cancelled' }),
        );
        return;
      case 'review':
        await this.act(message.taskId, message.verdict === 'approved' ? 'review approved' : 'review dismissed', () =>
          this.ctx.services.reviews.review({ taskId: message.taskId, verdict: message.verdict }),
        );
        return;
      case 'refresh':
        this.ctx.board.refresh();
        return;
      case 'openPlan':
        this.ctx.navigate({ view: 'planGraph', workflowId: message.workflowId });
        return;
      case 'planRun':
      case 'planGate':
        await steerFromPage(this.ctx, message);
        this.ctx.board.refresh();
        return;
      case 'painted':
        this.ctx.log(
          `board painted ${message.cards} cards (${message.rendered} in the DOM) ${message.ms.toFixed(0)} ms after the page started`,
        );
        return;
    }
  }

  changed(): void {
    // The shared board reads once for every page (see liveBoard); the server calls its refresh.
  }

  dispose(): void {
    this.listening.dispose();
  }

  private send(model: BoardModel): void {
    if (!this.ready) return;
    const message = this.deltas.next(model);
    if (message) this.ctx.post(message);
  }

  /** A person's change, through the same service as task_update: done, or the refusal said on the board. */
  private async act(taskId: number, done: string, change: () => Promise<unknown>): Promise<void> {
    try {
      await change();
      this.ctx.post({ type: 'acted', ok: true, text: `${taskKey(taskId)} ${done}.` });
    } catch (err) {
      if (!LedgerError.is(err)) throw err;
      this.ctx.post({ type: 'acted', ok: false, text: err.message });
    }
    this.ctx.board.refresh();
  }
}
