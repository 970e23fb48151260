import * as vscode from 'vscode';
import type {
  PlanGraphHostMessage,
  PlanGraphViewModel,
  PlanGraphWebviewMessage,
  PlanRunMessage,
} from '../../../shared/protocol';
import { planRunView } from '../../../views/planRunModel';
import { workflowKey } from '../../../core/ids';
import { truncate } from '../../../core/format';
import { Commands } from '../../commands/commandIds';
import { WebviewTypes } from '../../constants';
import type { FolderLedger } from '../../ledger/folderLedger';
import { WebviewPanelBase } from '../webviewPanelBase';
import { steerFromPanel } from '../planRunSteering';
import { coalesced } from '../../../views/coalesced';
import { errorMessage } from '../../../core/errors';

/** A workflow's plan drawn as a DAG (tasks and depends_on edges), with live task states. */
export class PlanGraphPanel extends WebviewPanelBase<PlanGraphHostMessage, PlanGraphWebviewMessage> {
  private _model: PlanGraphViewModel | undefined;
  readonly update: () => void;

  constructor(
    extensionUri: vscode.Uri,
    log: vscode.LogOutputChannel,
    readonly ledger: FolderLedger,
    readonly workflowId: number,
    restored?: vscode.WebviewPanel,
  ) {
    super(
      extensionUri,
      log,
      { viewType: WebviewTypes.PlanGraph, title: `Plan: ${workflowKey(workflowId)}`, kind: 'planGraph' },
      restored,
    );
    this.update = coalesced(
      () => this.load(),
      (err) => {
        const message = errorMessage(err);
        this.log.warn(`plan graph refresh failed: ${message}`);
        this.post({ type: 'error', message });
      },
    );
  }

  get model(): PlanGraphViewModel | undefined {
    return this._model;
  }

  protected onReady(): void {
    this.update();
  }

  protected async onMessage(message: Exclude<PlanGraphWebviewMessage, { type: 'ready' }>): Promise<void> {
    if (message.type === 'openTask')
      await vscode.commands.executeCommand(Commands.OpenTask, { folder: this.ledger.root, taskId: message.taskId });
    else if (message.type === 'planRun' || message.type === 'planGate') await this.steer(message);
    else this.update();
  }

  private async steer(message: PlanRunMessage): Promise<void> {
    this.post(await steerFromPanel(this.ledger, message));
    this.update();
  }

  private async load(): Promise<void> {
    const services = await this.ledger.require();
    const graph = await services.board.planGraph(this.workflowId);
    const run = await services.planRuns.latestOfGraph(workflowKey(this.workflowId));
    const model: PlanGraphViewModel = {
      folder: this.ledger.root,
      folderName: this.ledger.name,
      ...graph,
      run: run && planRunView(run),
    };
    this._model = model;
    this.panel.title = `Plan: ${truncate(graph.name, 40)}`;
    this.post({ type: 'planGraph', model });
  }
}
