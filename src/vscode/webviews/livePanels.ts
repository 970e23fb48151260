import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import type { FolderLedger } from '../ledger/folderLedger';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';

/** A panel a {@link LivePanels} keeps: re-read when its folder's ledger changes. */
export interface LivePanel {
  readonly ledger: FolderLedger;
  /** Re-reads and posts; called on every change of the ledger (the panel coalesces bursts). */
  update(): void;
  readonly onDidDispose: vscode.Event<void>;
  readonly panel: vscode.WebviewPanel;
  dispose(): void;
}

/**
 * The open panels of one kind, one per key (opening it again reveals it), each refreshed when its
 * folder's ledger changes — whichever process wrote — and restored after a window reload from
 * the state its webview saved.
 */
export class LivePanels<P extends LivePanel, Key> extends Disposable {
  private readonly panels = new Map<string, P>();

  constructor(
    viewType: string,
    private readonly registry: LedgerRegistry,
    private readonly keyOf: (key: Key) => string,
    private readonly create: (ledger: FolderLedger, key: Key, restored?: vscode.WebviewPanel) => P,
    /** The key saved in the webview's state (`{ folder, … }`), or undefined when it cannot come back. */
    private readonly restoredKey: (state: Record<string, unknown>) => Key | undefined,
  ) {
    super();
    this._register(registry.onDidChange((e) => [...this.panels.values()].filter((p) => p.ledger === e.ledger).forEach((p) => p.update())));
    this._register(vscode.window.registerWebviewPanelSerializer(viewType, { deserializeWebviewPanel: (panel, state) => this.restore(panel, state) }));
    this._register({ dispose: () => [...this.panels.values()].forEach((p) => p.dispose()) });
  }

  open(ledger: FolderLedger, key: Key): P {
    const existing = this.panels.get(this.mapKey(ledger, key));
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    return this.track(this.create(ledger, key), key);
  }

  get(ledger: FolderLedger, key: Key): P | undefined {
    return this.panels.get(this.mapKey(ledger, key));
  }

  private async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const saved = (typeof state === 'object' && state !== null ? state : {}) as Record<string, unknown>;
    const ledger = typeof saved.folder === 'string' ? this.registry.byPath(saved.folder) : undefined;
    const key = this.restoredKey(saved);
    if (!ledger || key === undefined || !(await ledger.open())) {
      panel.dispose();
      return;
    }
    this.track(this.create(ledger, key, panel), key);
  }

  private track(panel: P, key: Key): P {
    const k = this.mapKey(panel.ledger, key);
    this.panels.set(k, panel);
    panel.onDidDispose(() => {
      if (this.panels.get(k) === panel) this.panels.delete(k);
    });
    return panel;
  }

  private mapKey(ledger: FolderLedger, key: Key): string {
    return `${ledger.folder.uri.toString()}#${this.keyOf(key)}`;
  }
}
