import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import type { FolderLedger } from '../ledger/folderLedger';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import { describeTree } from './describeTree';
import { errorMessage } from '../../core/errors';

/** The top level of a view in a multi-root workspace: one node per folder with a ledger. */
export interface FolderNode {
  readonly kind: 'folder';
  readonly ledger: FolderLedger;
}

export function isFolderNode(node: unknown): node is FolderNode {
  return typeof node === 'object' && node !== null && (node as FolderNode).kind === 'folder';
}

/**
 * What every Agent Ledger tree view shares (Tasks, Memory Bank, Agents & Sessions,
 * Pipelines): the view itself, live refresh from every folder's store, lazy opening of a
 * folder's ledger when the view is first shown, and folder nodes in multi-root workspaces.
 * A view supplies only its own nodes: {@link folderChildren}, {@link childrenOf}, {@link treeItemOf}.
 * Returning no nodes at the top shows the view's welcome content (package.json `viewsWelcome`).
 */
export abstract class LedgerTreeView<T extends object>
  extends Disposable
  implements vscode.TreeDataProvider<T | FolderNode>
{
  protected readonly view: vscode.TreeView<T | FolderNode>;
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<T | FolderNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private pending: NodeJS.Timeout | undefined;

  constructor(
    viewId: string,
    protected readonly registry: LedgerRegistry,
    protected readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.view = this._register(
      vscode.window.createTreeView<T | FolderNode>(viewId, { treeDataProvider: this, showCollapseAll: true }),
    );
    this._register(registry.onDidChange(() => this.refresh()));
    this._register(registry.onDidChangeFolders(() => this.refresh()));
    this._register(this.view.onDidChangeVisibility((e) => e.visible && this.openLedgers()));
    this._register({ dispose: () => clearTimeout(this.pending) });
  }

  get visible(): boolean {
    return this.view.visible;
  }

  /**
   * Re-reads the whole view. Changes noticed in the same tick are coalesced here; VS Code itself
   * debounces a tree's refreshes (200 ms, leading edge), so bursts cost nothing more.
   */
  refresh(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this._onDidChangeTreeData.fire(undefined);
    }, 0);
  }

  getTreeItem(node: T | FolderNode): vscode.TreeItem {
    if (isFolderNode(node)) {
      const item = new vscode.TreeItem(node.ledger.name, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `folder:${node.ledger.folder.uri.toString()}`;
      item.iconPath = vscode.ThemeIcon.Folder;
      item.resourceUri = node.ledger.folder.uri;
      item.contextValue = 'folder';
      return item;
    }
    return this.treeItemOf(node);
  }

  async getChildren(node?: T | FolderNode): Promise<(T | FolderNode)[]> {
    try {
      if (node === undefined) return await this.roots();
      if (isFolderNode(node)) return await this.folderChildren(node.ledger);
      return await this.childrenOf(node);
    } catch (err) {
      // A view must never break: log, and show what could be read.
      this.log.error(
        `${this.view.title ?? 'view'}: reading the ledger failed:`,
        err instanceof Error ? err : String(err),
      );
      return [];
    }
  }

  getParent(node: T | FolderNode): T | FolderNode | undefined {
    if (isFolderNode(node)) return undefined;
    const parent = this.parentOf(node);
    if (parent !== undefined) return parent;
    return this.registry.all().length > 1 ? { kind: 'folder', ledger: this.ledgerOf(node) } : undefined;
  }

  /** Top-level nodes of one folder; empty while its ledger is absent or still opening. */
  /** The rows the view shows, as the tests and benchmarks read them (see describeTree). */
  describe(): Promise<string[]> {
    return describeTree(this);
  }

  protected abstract folderChildren(ledger: FolderLedger): T[] | Promise<T[]>;
  protected abstract childrenOf(node: T): T[] | Promise<T[]>;
  protected abstract treeItemOf(node: T): vscode.TreeItem;
  protected abstract parentOf(node: T): T | undefined;
  protected abstract ledgerOf(node: T): FolderLedger;

  private async roots(): Promise<(T | FolderNode)[]> {
    const ledgers = this.registry.all();
    this.openLedgers();
    let result: (T | FolderNode)[];
    if (ledgers.length === 1) result = await this.folderChildren(ledgers[0]);
    else {
      result = [];
      for (const ledger of ledgers)
        if (ledger.services && (await this.folderChildren(ledger)).length > 0) result.push({ kind: 'folder', ledger });
    }
    // A store that cannot be opened (corrupt, written by a newer version) must not look empty.
    const failed = ledgers.filter((l) => l.state === 'failed');
    this.view.message = failed.length
      ? `Could not open the ledger of ${failed.map((l) => l.name).join(', ')}: ${failed.map((l) => errorMessage(l.error)).join('; ')}`
      : undefined;
    return result;
  }

  /** Opening fires `opened`, which refreshes the view: no need to wait here. */
  private openLedgers(): void {
    for (const ledger of this.registry.all()) if (!ledger.services) void ledger.open();
  }
}
