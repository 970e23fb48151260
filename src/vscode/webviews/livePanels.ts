import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import type { FolderLedger } from '../ledger/folderLedger';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import { errorMessage } from '../../core/errors';

/** A panel a {@link LivePanels} keeps: re-read when its folder's ledger changes. */
export interface LivePanel {
  readonly ledger: FolderLedger;
  /** Re-reads and posts; called on every change that concerns it (the panel coalesces bursts). */
  update(): void | Promise<void>;
  readonly onDidDispose: vscode.Event<void>;
  readonly panel: vscode.WebviewPanel;
  dispose(): void;
}

/** How one kind of panel differs from the rest. */
export interface LivePanelOptions<P extends LivePanel, E> {
  /**
   * When panels re-read: by default on every change of their folder's ledger; a kind with a finer
   * source (one pipeline's events) names it and says which panels a change concerns.
   */
  changes?: { event: vscode.Event<E>; concerns: (panel: P, change: E) => boolean };
  /** Opening a panel that is already open reveals it; this runs too (e.g. a forced re-read). */
  onReveal?: (panel: P) => void;
  /** Where a failed re-read is logged, as `<what> refresh failed: …`. */
  log?: { log: vscode.LogOutputChannel; what: string };
}

/**
 * The open panels of one kind, one per key (opening it again reveals it), each refreshed when its
 * folder's ledger changes — whichever process wrote — and restored after a window reload from
 * the state its webview saved.
 */
export class LivePanels<P extends LivePanel, Key, E = unknown> extends Disposable {
  private readonly panels = new Map<string, P>();

  constructor(
    viewType: string,
    private readonly registry: LedgerRegistry,
    private readonly keyOf: (key: Key) => string,
    private readonly create: (ledger: FolderLedger, key: Key, restored?: vscode.WebviewPanel) => P,
    /** The key saved in the webview's state (`{ folder, … }`), or undefined when it cannot come back. */
    private readonly restoredKey: (state: Record<string, unknown>) => Key | undefined,
    private readonly options: LivePanelOptions<P, E> = {},
  ) {
    super();
    const changes = options.changes;
    if (changes) this._register(changes.event((e) => this.refresh((p) => changes.concerns(p, e))));
    else this._register(registry.onDidChange((e) => this.refresh((p) => p.ledger === e.ledger)));
    this._register(
      vscode.window.registerWebviewPanelSerializer(viewType, {
        deserializeWebviewPanel: (panel, state) => this.restore(panel, state),
      }),
    );
    this._register({ dispose: () => [...this.panels.values()].forEach((p) => p.dispose()) });
  }

  open(ledger: FolderLedger, key: Key): P {
    const existing = this.panels.get(this.mapKey(ledger, key));
    if (existing) {
      existing.panel.reveal();
      this.options.onReveal?.(existing);
      return existing;
    }
    return this.track(this.create(ledger, key), key);
  }

  get(ledger: FolderLedger, key: Key): P | undefined {
    return this.panels.get(this.mapKey(ledger, key));
  }

  private refresh(concerned: (panel: P) => boolean): void {
    for (const panel of this.panels.values()) {
      if (!concerned(panel)) continue;
      Promise.resolve(panel.update()).catch((err: unknown) =>
        this.options.log?.log.warn(`${this.options.log.what} refresh failed: ${errorMessage(err)}`),
      );
    }
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
