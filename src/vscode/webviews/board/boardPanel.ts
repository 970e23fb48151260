import * as vscode from 'vscode';
import type { BoardHostMessage, BoardModel, BoardWebviewMessage, PlanRunMessage } from '../../../shared/protocol';
import { planRunView } from '../../../views/planRunModel';
import { parseId, taskKey } from '../../../core/ids';
import { Commands } from '../../commands/commandIds';
import { WebviewTypes } from '../../constants';
import type { FolderLedger } from '../../ledger/folderLedger';
import { isLedgerError } from '../../ledger/loadDomain';
import { WebviewPanelBase } from '../webviewPanelBase';
import { steerFromPanel } from '../planRunSteering';
import { coalesced } from '../../../views/coalesced';
import { errorMessage } from '../../../core/errors';
import type { Services } from '../../../app/services';
import { BoardDeltas } from '../../../views/boardDeltas';
import { WalkthroughKeys, walkthroughDone } from '../../walkthrough/walkthroughProgress';

/** What the webview measured of its first render of a model (tests and the log read it). */
export interface BoardPaint {
  ms: number;
  cards: number;
  rendered: number;
}

/**
 * The Board of one folder: every task in columns by status, live. Cards are dragged onto an agent
 * (assign) or onto Cancel; a click opens the task's detail (a checkpoint card: its pipeline).
 */
export class BoardPanel extends WebviewPanelBase<BoardHostMessage, BoardWebviewMessage> {
  private _model: BoardModel | undefined;
  private _paints: BoardPaint[] = [];
  /** What the page holds: the whole board after its `ready`, then only what changed. */
  private readonly deltas = new BoardDeltas();
  /** Until the page's first `ready`: the board is read while the page starts (see onReady). */
  private preloading = true;
  readonly update: () => void;

  constructor(
    extensionUri: vscode.Uri,
    log: vscode.LogOutputChannel,
    readonly ledger: FolderLedger,
    restored?: vscode.WebviewPanel,
  ) {
    super(extensionUri, log, { viewType: WebviewTypes.Board, title: `Board: ${ledger.name}`, kind: 'board' }, restored);
    this.update = coalesced(
      () => this.load(),
      (err) => {
        const message = errorMessage(err);
        this.log.warn(`board refresh failed: ${message}`);
        this.post({ type: 'error', message });
      },
    );
    // Read the board now rather than at the page's `ready`: the read overlaps the page's start,
    // and the whole model waits in the queue the page gets with its `ready`.
    this.update();
  }

  /** The last model posted (tests). */
  get model(): BoardModel | undefined {
    return this._model;
  }

  /** First renders the webview reported, oldest first (tests, the first-paint figure). */
  get paints(): readonly BoardPaint[] {
    return this._paints;
  }

  protected onReady(): void {
    if (this.preloading) {
      this.preloading = false;
      // The model read at construction went out with this `ready` (or goes out whole when the
      // read ends, the deltas still reset): from here on only what changed since.
      this.update();
      return;
    }
    // A reloaded page has nothing: it gets the whole board.
    this.deltas.reset();
    this.update();
  }

  protected async onMessage(message: Exclude<BoardWebviewMessage, { type: 'ready' }>): Promise<void> {
    switch (message.type) {
      case 'openCard':
        await this.openCard(message.id);
        return;
      case 'assign':
        await this.act(`assigned to ${message.agent}`, message.taskId, { assignee: message.agent });
        return;
      case 'cancel':
        await this.act('cancelled', message.taskId, { status: 'cancelled' });
        return;
      case 'review':
        await this.run(
          message.taskId,
          message.verdict === 'approved' ? 'review approved' : 'review dismissed',
          async (services) => {
            await services.reviews.review({ taskId: message.taskId, verdict: message.verdict });
            walkthroughDone(WalkthroughKeys.Decided);
          },
        );
        return;
      case 'refresh':
        this.update();
        return;
      case 'openPlan':
        await vscode.commands.executeCommand(Commands.OpenPlanGraph, {
          folder: this.ledger.root,
          workflowId: message.workflowId,
        });
        return;
      case 'planRun':
      case 'planGate':
        await this.steer(message);
        return;
      case 'painted':
        this._paints.push({ ms: message.ms, cards: message.cards, rendered: message.rendered });
        this.log.info(
          `[${this.ledger.name}] board painted ${message.cards} cards (${message.rendered} in the DOM) ${message.ms.toFixed(0)} ms after the page started`,
        );
        return;
    }
  }

  private async load(): Promise<void> {
    const services = await this.ledger.require();
    const snapshot = await services.board.board();
    const plans = (await services.planRuns.active()).map(planRunView);
    const model: BoardModel = { folder: this.ledger.root, folderName: this.ledger.name, ...snapshot, plans };
    this._model = model;
    const message = this.deltas.next(model);
    if (message) this.post(message);
  }

  private async openCard(id: string): Promise<void> {
    const card = this._model?.cards.find((c) => c.id === id);
    if (card?.pipeline) {
      await vscode.commands.executeCommand(Commands.OpenPipeline, {
        folder: this.ledger.root,
        workspace: card.pipeline,
      });
      return;
    }
    await vscode.commands.executeCommand(Commands.OpenTask, {
      folder: this.ledger.root,
      taskId: card?.taskId ?? parseId('task', id),
    });
  }

  /** One change through the same service as task_update and `agent-ledger task update`; a refusal is shown on the board. */
  private act(done: string, taskId: number, change: { assignee?: string; status?: 'cancelled' }): Promise<void> {
    return this.run(taskId, done, async (services) => {
      await services.tasks.update({ id: taskId, ...change });
    });
  }

  private async steer(message: PlanRunMessage): Promise<void> {
    this.post(await steerFromPanel(this.ledger, message));
    this.update();
  }

  /** One change of a person's, said on the board: done, or the refusal's message. */
  private async run(taskId: number, done: string, change: (services: Services) => Promise<void>): Promise<void> {
    const services = await this.ledger.require();
    try {
      await change(services);
      this.post({ type: 'acted', ok: true, text: `${taskKey(taskId)} ${done}.` });
    } catch (err) {
      if (!isLedgerError(err)) throw err;
      this.post({ type: 'acted', ok: false, text: err.message });
    }
    this.update();
  }
}
