import * as vscode from 'vscode';
import type { PipelineChange } from '../../../core/pipelines/pipelineService';
import { Disposable } from '../../lifecycle';
import type { FolderLedger, LedgerChange } from '../../ledger/folderLedger';
import type { LedgerRegistry } from '../../ledger/ledgerRegistry';

/** A pipeline of one folder changed (`change`), or the folder's ledger opened or closed (no `change`). */
export interface FolderPipelineChange {
  ledger: FolderLedger;
  change?: PipelineChange;
}

/**
 * The pipelines of every folder, as one event: each open ledger's `PipelineService.onDidChange`
 * (a pipeline's events reached this process's store, whoever wrote them), re-subscribed whenever
 * a ledger is (re)opened. The badge, the notifier and the pipeline panels listen here; the tree
 * itself re-reads on every store change like every Agent Ledger view.
 */
export class PipelineWatcher extends Disposable {
  private readonly subscriptions = new Map<FolderLedger, vscode.Disposable>();

  private readonly _onDidChange = this._register(new vscode.EventEmitter<FolderPipelineChange>());
  readonly onDidChange = this._onDidChange.event;

  constructor(readonly registry: LedgerRegistry) {
    super();
    this._register(registry.onDidChange((e) => this.onLedgerChange(e)));
    this._register(registry.onDidChangeFolders(() => this.forgetRemovedFolders()));
    this._register({ dispose: () => [...this.subscriptions.keys()].forEach((l) => this.unsubscribe(l)) });
  }

  private onLedgerChange(e: LedgerChange): void {
    if (e.reason === 'store') return;
    this.unsubscribe(e.ledger);
    const services = e.reason === 'opened' ? e.ledger.services : undefined;
    if (services) {
      const ledger = e.ledger;
      this.subscriptions.set(
        ledger,
        services.pipelines.onDidChange((change) => this._onDidChange.fire({ ledger, change })),
      );
    }
    this._onDidChange.fire({ ledger: e.ledger });
  }

  private forgetRemovedFolders(): void {
    const current = new Set(this.registry.all());
    for (const ledger of [...this.subscriptions.keys()]) if (!current.has(ledger)) this.unsubscribe(ledger);
  }

  private unsubscribe(ledger: FolderLedger): void {
    this.subscriptions.get(ledger)?.dispose();
    this.subscriptions.delete(ledger);
  }
}
