import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { memoryFolder } from '../../../core/ledgerFiles';
import { Views } from '../../constants';
import type { FolderLedger } from '../../ledger/folderLedger';
import type { LedgerRegistry } from '../../ledger/ledgerRegistry';
import { LedgerTreeView } from '../ledgerTreeView';
import { categoryItem, categoryNodes, entryItem, problemItem } from './memoryItems';
import type { MemoryEntryNode, MemoryNode, MemoryProblemNode } from './memoryItems';

/**
 * The Memory Bank view: category → entry of every folder's `.agent-ledger/memory/`. The files are
 * the truth (MemoryBank re-reads a file when it changed on disk), so besides the store's changes
 * the view follows the folder itself: a hand edit, a `git pull` or another process's memory_add
 * shows without a restart.
 */
export class MemoryView extends LedgerTreeView<MemoryNode> {
  constructor(registry: LedgerRegistry, log: vscode.LogOutputChannel) {
    super(Views.Memory, registry, log);
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(`**/${memoryFolder}/**`));
    this._register(watcher.onDidCreate(() => this.refresh()));
    this._register(watcher.onDidChange(() => this.refresh()));
    this._register(watcher.onDidDelete(() => this.refresh()));
  }

  protected folderChildren(ledger: FolderLedger): MemoryNode[] {
    const services = ledger.services;
    if (!services) {
      this.openIfBankExists(ledger);
      return [];
    }
    const { memories, problems } = services.memory.current();
    return categoryNodes(ledger, memories, problems);
  }

  protected childrenOf(node: MemoryNode): MemoryNode[] {
    if (node.kind !== 'category') return [];
    const entries = node.entries.map((entry): MemoryEntryNode => ({
      kind: 'entry',
      ledger: node.ledger,
      entry,
      parent: node,
    }));
    const problems = node.problems.map((problem): MemoryProblemNode => ({
      kind: 'problem',
      ledger: node.ledger,
      problem,
      parent: node,
    }));
    return [...entries, ...problems];
  }

  protected treeItemOf(node: MemoryNode): vscode.TreeItem {
    return node.kind === 'category' ? categoryItem(node) : node.kind === 'entry' ? entryItem(node) : problemItem(node);
  }

  protected parentOf(node: MemoryNode): MemoryNode | undefined {
    return node.kind === 'category' ? undefined : node.parent;
  }

  protected ledgerOf(node: MemoryNode): FolderLedger {
    return node.ledger;
  }

  /**
   * Memory entries are committed with the project, the store is not: a fresh clone has a bank
   * but no ledger. Opening (creating) the folder's ledger then is what any agent's first tool
   * call would do, and lets the view show the bank the project already has.
   */
  private openIfBankExists(ledger: FolderLedger): void {
    if (ledger.state !== 'absent' || ledger.folder.uri.scheme !== 'file') return;
    if (existsSync(path.join(ledger.root, ...memoryFolder.split('/')))) void ledger.open({ create: true });
  }
}
