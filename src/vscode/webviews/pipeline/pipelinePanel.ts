import * as vscode from 'vscode';
import type { PipelineHostMessage, PipelineModel, PipelineWebviewMessage } from '../../../shared/protocol';
import { truncate } from '../../../core/format';
import { Commands } from '../../commands/commandIds';
import { WebviewTypes } from '../../constants';
import type { FolderLedger } from '../../ledger/folderLedger';
import { isLedgerError } from '../../ledger/loadDomain';
import { decideInEditor } from '../../views/pipelines/pipelineDecisions';
import { decisionSummary } from '../../../views/pipelineText';
import type { PipelineTarget } from '../../views/pipelines/pipelineDecisions';
import { WebviewPanelBase } from '../webviewPanelBase';
import { pipelineModel, readFlow } from '../../../views/pipelineModel';

/**
 * One pipeline: its phase timeline, artifacts (click → editor), review findings, metrics,
 * decisions, and the buttons that decide the checkpoint or human gate it waits at. Live: the
 * panels re-read it whenever one of its pipeline events reaches the store, from any process.
 */
export class PipelinePanel extends WebviewPanelBase<PipelineHostMessage, PipelineWebviewMessage> {
  private _model: PipelineModel | undefined;
  private posted = '';

  constructor(
    extensionUri: vscode.Uri,
    log: vscode.LogOutputChannel,
    readonly ledger: FolderLedger,
    /** `.specs/<name>`, as the engine names it. */
    readonly workspace: string,
    restored?: vscode.WebviewPanel,
  ) {
    super(
      extensionUri,
      log,
      { viewType: WebviewTypes.Pipeline, title: workspace.split('/').pop() ?? workspace, kind: 'pipeline' },
      restored,
    );
  }

  get target(): PipelineTarget {
    return { folder: this.ledger.root, workspace: this.workspace };
  }

  /** The last model posted (tests read it). */
  get model(): PipelineModel | undefined {
    return this._model;
  }

  /** Re-reads the pipeline; posts only when something the webview shows changed (`force`: always). */
  async update(force = false): Promise<void> {
    const services = await this.ledger.require();
    const model = pipelineModel(
      await services.pipelines.detail(this.workspace),
      { name: this.ledger.name, root: this.ledger.root },
      readFlow(services),
    );
    const json = JSON.stringify(model);
    this._model = model;
    this.panel.title = truncate(model.title, 40);
    if (!force && json === this.posted) return;
    this.posted = json;
    this.post({ type: 'pipeline', model });
  }

  protected async onReady(): Promise<void> {
    await this.update(true);
  }

  protected async onMessage(message: Exclude<PipelineWebviewMessage, { type: 'ready' }>): Promise<void> {
    switch (message.type) {
      case 'refresh':
        await this.update(true);
        return;
      case 'openArtifact':
        await this.openArtifact(message.path);
        return;
      case 'openTask':
        await vscode.commands.executeCommand(Commands.OpenTask, {
          folder: this.ledger.root,
          taskId: message.ledgerTaskId,
        });
        return;
      case 'decide':
        await this.decide(message);
        return;
    }
  }

  private async decide(message: Extract<PipelineWebviewMessage, { type: 'decide' }>): Promise<void> {
    try {
      const result = await decideInEditor(this.ledger, this.workspace, {
        decision: message.decision,
        comment: message.comment,
        checkpoint: message.checkpoint,
      });
      this.post({ type: 'decided', ok: true, text: decisionSummary(result) });
    } catch (err) {
      // The engine's refusal (a stale checkpoint, an option it does not take) belongs beside the buttons.
      if (!isLedgerError(err)) throw err;
      this.log.warn(`${this.workspace}: decision refused: ${err.message}`);
      this.post({ type: 'decided', ok: false, text: err.message });
    }
    await this.update(true);
  }

  /** Opens a file of this pipeline's folder, and only those: the path comes from the webview. */
  private async openArtifact(file: string): Promise<void> {
    const m = this._model;
    const known =
      m &&
      [
        ...m.artifacts,
        ...m.phases.flatMap((p) => (p.artifact ? [p.artifact] : [])),
        ...(m.waiting?.present ?? []),
      ].some((a) => a.path === file);
    if (!known) {
      this.log.warn(`${this.workspace}: the webview asked to open ${file}, which is not one of its artifacts`);
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file), {
      preview: true,
      viewColumn: vscode.ViewColumn.Beside,
    });
  }
}
