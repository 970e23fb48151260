import * as vscode from 'vscode';
import { LedgerError } from '../../core/errors';
import { Disposable } from '../lifecycle';
import { FolderLedger } from './folderLedger';
import type { LedgerChange } from './folderLedger';
import type { LedgerDatabase } from './ledgerDatabase';

/**
 * One {@link FolderLedger} per workspace folder (multi-root: one store each), and one place
 * every view, the status bar and the notifier listen to: {@link onDidChange} fans out the
 * changes of every folder's store, whichever process wrote them.
 */
export class LedgerRegistry extends Disposable {
  private readonly ledgers = new Map<string, FolderLedger>();
  private readonly subscriptions = new Map<string, vscode.Disposable>();

  private readonly _onDidChange = this._register(new vscode.EventEmitter<LedgerChange>());
  /** Any folder's ledger opened, closed or changed. */
  readonly onDidChange = this._onDidChange.event;

  private readonly _onDidChangeFolders = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeFolders = this._onDidChangeFolders.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    readonly database: LedgerDatabase,
  ) {
    super();
    this.sync();
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.sync()));
    // Another database (or password): every ledger opens again on it.
    this._register(
      database.onDidChange(() =>
        this.all()
          .filter((l) => l.isTeam || l.services?.engine.kind === 'postgres' || l.state === 'failed')
          .forEach((l) => l.reopen()),
      ),
    );
    this._register({ dispose: () => this.clear() });
  }

  /** In workspace-folder order. */
  all(): FolderLedger[] {
    return (vscode.workspace.workspaceFolders ?? [])
      .map((f) => this.ledgers.get(key(f)))
      .filter((l): l is FolderLedger => l !== undefined);
  }

  /** The ledger of the folder holding `uri` (a folder or a file in it). */
  get(uri: vscode.Uri): FolderLedger | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    return folder ? this.ledgers.get(key(folder)) : undefined;
  }

  /** The ledger of a folder given by its path (webview state, command arguments). */
  byPath(fsPath: string): FolderLedger | undefined {
    return this.get(vscode.Uri.file(fsPath));
  }

  /** Opens, in the background, every ledger that already exists (status bar, notifications); `retry` also those that failed. */
  openExisting(retry = false): void {
    for (const ledger of this.all()) void ledger.open({ retry });
  }

  /**
   * The folder a command acts on: the one given, the only one, or the person's pick.
   * Undefined when they dismiss the pick.
   */
  async pick(given: vscode.Uri | undefined, placeHolder: string): Promise<FolderLedger | undefined> {
    if (given) {
      const ledger = this.get(given);
      if (!ledger) throw new LedgerError('NotFound', `${given.fsPath} is not in a folder of this workspace`);
      return ledger;
    }
    const all = this.all().filter((l) => l.folder.uri.scheme === 'file');
    if (all.length === 0)
      throw new LedgerError('ConfigError', 'Open a folder first: Agent Ledger keeps one ledger per workspace folder.');
    if (all.length === 1) return all[0];
    const picked = await vscode.window.showQuickPick(
      all.map((l) => ({ label: l.name, description: l.root, ledger: l })),
      { placeHolder },
    );
    return picked?.ledger;
  }

  private sync(): void {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const wanted = new Set(folders.map(key));
    let changed = false;
    for (const [k, ledger] of this.ledgers) {
      if (wanted.has(k)) continue;
      this.subscriptions.get(k)?.dispose();
      this.subscriptions.delete(k);
      this.ledgers.delete(k);
      ledger.dispose();
      changed = true;
    }
    for (const folder of folders) {
      const k = key(folder);
      if (this.ledgers.has(k)) continue;
      const ledger = new FolderLedger(folder, this.log, this.database);
      this.ledgers.set(k, ledger);
      this.subscriptions.set(
        k,
        ledger.onDidChange((e) => this._onDidChange.fire(e)),
      );
      changed = true;
    }
    if (changed) this._onDidChangeFolders.fire();
  }

  private clear(): void {
    for (const s of this.subscriptions.values()) s.dispose();
    for (const l of this.ledgers.values()) l.dispose();
    this.subscriptions.clear();
    this.ledgers.clear();
  }
}

function key(folder: vscode.WorkspaceFolder): string {
  return folder.uri.toString();
}
