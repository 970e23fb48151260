import * as vscode from 'vscode';
import type { ExplorerPressure } from '../../core/board/boardQueries';
import { explorerBadge } from '../../views/explorerBadge';
import { Settings } from '../constants';
import { Disposable } from '../lifecycle';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';

/** Store changes arriving closer together than this are rolled up once. */
const debounceMs = 300;

/**
 * The Explorer shows where agents are working now: a file or folder that running tasks marked in
 * the stigmergy field (their areas, the files they changed so far) gets a ledger badge and a
 * tooltip naming them (views/explorerBadge.ts says which). The field is rolled up to folders once per burst of store changes (debounced), so the
 * decoration of each file is a map lookup however many marks there are; a path whose answer the
 * Board kept (its marks did not change) keeps its decoration, made once.
 */
export class PressureDecorations extends Disposable implements vscode.FileDecorationProvider {
  private readonly _onDidChangeFileDecorations = this._register(new vscode.EventEmitter<vscode.Uri[] | undefined>());
  readonly onDidChangeFileDecorations = this._onDidChangeFileDecorations.event;
  /** Decorations by URI string, from the last roll-up. */
  private decorations = new Map<string, vscode.FileDecoration>();
  private pending: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** Each answer's URI key and decoration, by answer: the Board keeps the answers of paths a change did not touch. */
  private readonly made = new WeakMap<
    ExplorerPressure,
    { folder: string; key: string; decoration: vscode.FileDecoration }
  >();
  /** How long the last roll-up took and how many paths it decorated (tests, the log). */
  lastRollUp: { ms: number; paths: number } | undefined;

  constructor(
    private readonly registry: LedgerRegistry,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(vscode.window.registerFileDecorationProvider(this));
    this._register(registry.onDidChange(() => this.schedule()));
    this._register(registry.onDidChangeFolders(() => this.schedule()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${Settings.Section}.${Settings.ExplorerPressure}`)) this.schedule();
      }),
    );
    this._register({ dispose: () => clearTimeout(this.pending) });
    this.schedule();
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    return this.decorations.get(uri.toString());
  }

  /** The decoration of a path now (tests). */
  decorationOf(uri: vscode.Uri): { badge?: string; tooltip?: string; color?: string; propagate?: boolean } | undefined {
    const d = this.decorations.get(uri.toString());
    return d ? { badge: d.badge, tooltip: d.tooltip, color: d.color?.id, propagate: d.propagate } : undefined;
  }

  /** Rolls up again now and resolves when the decorations are current (tests, Refresh). */
  refresh(): Promise<void> {
    clearTimeout(this.pending);
    this.pending = undefined;
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.rollUp()
      .catch((err) => this.log.warn(`explorer pressure: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          void this.refresh();
        }
      });
    return this.running;
  }

  private schedule(): void {
    if (this.pending || this.isDisposed) return;
    this.pending = setTimeout(() => void this.refresh(), debounceMs);
  }

  private async rollUp(): Promise<void> {
    const started = performance.now();
    const next = new Map<string, vscode.FileDecoration>();
    const enabled = vscode.workspace.getConfiguration(Settings.Section).get<boolean>(Settings.ExplorerPressure, true);
    for (const ledger of enabled ? this.registry.all() : []) {
      const services = ledger.services;
      if (!services) continue;
      const folder = ledger.folder.uri.toString();
      for (const p of await services.board.pressure()) {
        let made = this.made.get(p);
        if (made?.folder !== folder) {
          made = {
            folder,
            key: vscode.Uri.joinPath(ledger.folder.uri, p.path).toString(),
            decoration: decorationOf(p),
          };
          this.made.set(p, made);
        }
        next.set(made.key, made.decoration);
      }
    }
    // Only the paths whose decoration appeared, went or changed are asked again.
    const changed: vscode.Uri[] = [];
    for (const [key, d] of next) {
      const before = this.decorations.get(key);
      if (
        before !== d &&
        (!before || before.badge !== d.badge || before.tooltip !== d.tooltip || before.color?.id !== d.color?.id)
      )
        changed.push(vscode.Uri.parse(key));
    }
    for (const key of this.decorations.keys()) if (!next.has(key)) changed.push(vscode.Uri.parse(key));
    this.decorations = next;
    this.lastRollUp = { ms: performance.now() - started, paths: next.size };
    if (changed.length) this._onDidChangeFileDecorations.fire(changed);
  }
}

function decorationOf(p: ExplorerPressure): vscode.FileDecoration {
  const b = explorerBadge(p);
  const decoration = new vscode.FileDecoration(b.badge, b.tooltip, b.color && new vscode.ThemeColor(b.color));
  decoration.propagate = false; // the roll-up already decorates each folder with what is under it
  return decoration;
}
