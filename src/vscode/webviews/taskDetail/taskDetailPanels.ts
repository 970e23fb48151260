import * as vscode from 'vscode';
import { WebviewTypes } from '../../constants';
import { Disposable } from '../../lifecycle';
import type { FolderLedger } from '../../ledger/folderLedger';
import type { LedgerRegistry } from '../../ledger/ledgerRegistry';
import { TaskDetailPanel } from './taskDetailPanel';
import type { TaskTarget } from './taskDetailPanel';
import { errorMessage } from '../../../core/errors';

/**
 * The open task detail panels: one per task (opening it again reveals it), each refreshed when
 * its folder's ledger changes, and restored after a window reload.
 */
export class TaskDetailPanels extends Disposable {
  private readonly panels = new Map<string, TaskDetailPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly registry: LedgerRegistry,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(
      registry.onDidChange((e) => {
        for (const panel of this.panels.values()) {
          if (panel.ledger === e.ledger) panel.update().catch((err) => this.log.warn(`task detail refresh failed: ${errorMessage(err)}`));
        }
      }),
    );
    this._register(vscode.window.registerWebviewPanelSerializer(WebviewTypes.TaskDetail, { deserializeWebviewPanel: (panel, state) => this.restore(panel, state) }));
    this._register({ dispose: () => [...this.panels.values()].forEach((p) => p.dispose()) });
  }

  open(ledger: FolderLedger, taskId: number): TaskDetailPanel {
    const existing = this.panels.get(key(ledger, taskId));
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    return this.track(new TaskDetailPanel(this.extensionUri, this.log, ledger, taskId));
  }

  /** The panel of a task, if open (tests). */
  get(ledger: FolderLedger, taskId: number): TaskDetailPanel | undefined {
    return this.panels.get(key(ledger, taskId));
  }

  private async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const target = state as Partial<TaskTarget> | undefined;
    const ledger = typeof target?.folder === 'string' ? this.registry.byPath(target.folder) : undefined;
    if (!ledger || typeof target?.taskId !== 'number' || !(await ledger.open())) {
      panel.dispose();
      return;
    }
    this.track(new TaskDetailPanel(this.extensionUri, this.log, ledger, target.taskId, panel));
  }

  private track(panel: TaskDetailPanel): TaskDetailPanel {
    const k = key(panel.ledger, panel.taskId);
    this.panels.set(k, panel);
    panel.onDidDispose(() => {
      if (this.panels.get(k) === panel) this.panels.delete(k);
    });
    return panel;
  }
}

function key(ledger: FolderLedger, taskId: number): string {
  return `${ledger.folder.uri.toString()}#${taskId}`;
}
