import * as vscode from 'vscode';
import { WebviewTypes } from '../../constants';
import { Disposable } from '../../lifecycle';
import type { FolderLedger } from '../../ledger/folderLedger';
import type { PipelineTarget } from '../../views/pipelines/pipelineDecisions';
import type { PipelineWatcher } from '../../views/pipelines/pipelineWatcher';
import { PipelinePanel } from './pipelinePanel';
import { errorMessage } from '../../../core/errors';

/**
 * The open pipeline panels: one per pipeline (opening it again reveals it), each re-read when one
 * of its pipeline's events reaches the store, and restored after a window reload.
 */
export class PipelinePanels extends Disposable {
  private readonly panels = new Map<string, PipelinePanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly watcher: PipelineWatcher,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(
      watcher.onDidChange(({ ledger, change }) => {
        for (const panel of this.panels.values()) {
          if (panel.ledger !== ledger || (change && !change.workspaces.includes(panel.workspace))) continue;
          panel.update().catch((err) => this.log.warn(`pipeline panel refresh failed: ${errorMessage(err)}`));
        }
      }),
    );
    this._register(vscode.window.registerWebviewPanelSerializer(WebviewTypes.Pipeline, { deserializeWebviewPanel: (panel, state) => this.restore(panel, state) }));
    this._register({ dispose: () => [...this.panels.values()].forEach((p) => p.dispose()) });
  }

  /** `workspace` as the engine names it (`PipelineDetail.workspace`), so events find the panel. */
  open(ledger: FolderLedger, workspace: string): PipelinePanel {
    const existing = this.panels.get(key(ledger, workspace));
    if (existing) {
      existing.panel.reveal();
      void existing.update(true);
      return existing;
    }
    return this.track(new PipelinePanel(this.extensionUri, this.log, ledger, workspace));
  }

  /** The panel of a pipeline, if open (tests). */
  get(ledger: FolderLedger, workspace: string): PipelinePanel | undefined {
    return this.panels.get(key(ledger, workspace));
  }

  private async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const target = state as Partial<PipelineTarget> | undefined;
    const ledger = typeof target?.folder === 'string' ? this.watcher.registry.byPath(target.folder) : undefined;
    if (!ledger || typeof target?.workspace !== 'string' || !(await ledger.open())) {
      panel.dispose();
      return;
    }
    this.track(new PipelinePanel(this.extensionUri, this.log, ledger, target.workspace, panel));
  }

  private track(panel: PipelinePanel): PipelinePanel {
    const k = key(panel.ledger, panel.workspace);
    this.panels.set(k, panel);
    panel.onDidDispose(() => {
      if (this.panels.get(k) === panel) this.panels.delete(k);
    });
    return panel;
  }
}

function key(ledger: FolderLedger, workspace: string): string {
  return `${ledger.folder.uri.toString()}#${workspace}`;
}
