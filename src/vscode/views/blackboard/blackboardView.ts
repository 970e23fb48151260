import type * as vscode from 'vscode';
import type { BlackboardEntry } from '../../../core/coordination/blackboard/blackboardRules';
import { Views } from '../../constants';
import type { FolderLedger } from '../../ledger/folderLedger';
import type { LedgerRegistry } from '../../ledger/ledgerRegistry';
import { LedgerTreeView } from '../ledgerTreeView';
import { coalesced } from '../../../views/coalesced';
import { entryFacts, entryItem, factItem, namespaceItem, namespaceNodes } from './blackboardItems';
import type { BlackboardNode, EntryNode } from './blackboardItems';
import { errorMessage } from '../../../core/errors';

/** How many entries of a folder the view lists (most recently updated first). */
const listed = 1000;

/**
 * The blackboard (bb_* tools) of every folder: namespace → key → value, tags, expiry. The
 * blackboard is read over the asynchronous port, so the view keeps the last read of each folder
 * and reads again on every change of its ledger (any process), and when the next entry expires.
 */
export class BlackboardView extends LedgerTreeView<BlackboardNode> {
  private readonly entries = new Map<FolderLedger, readonly BlackboardEntry[]>();
  private expiry: NodeJS.Timeout | undefined;
  readonly reload: () => void;

  constructor(registry: LedgerRegistry, log: vscode.LogOutputChannel) {
    super(Views.Blackboard, registry, log);
    this.reload = coalesced(
      () => this.read(),
      (err) => this.log.warn(`blackboard: reading failed: ${errorMessage(err)}`),
    );
    this._register(registry.onDidChange(() => this.reload()));
    this._register({ dispose: () => clearTimeout(this.expiry) });
  }

  protected folderChildren(ledger: FolderLedger): BlackboardNode[] {
    const entries = this.entries.get(ledger);
    if (!entries) {
      if (ledger.services) this.reload();
      return [];
    }
    return namespaceNodes(ledger, entries);
  }

  protected childrenOf(node: BlackboardNode): BlackboardNode[] {
    if (node.kind === 'namespace')
      return node.entries.map((entry): EntryNode => ({ kind: 'entry', ledger: node.ledger, entry, parent: node }));
    if (node.kind === 'entry') return entryFacts(node);
    return [];
  }

  protected treeItemOf(node: BlackboardNode): vscode.TreeItem {
    return node.kind === 'namespace' ? namespaceItem(node) : node.kind === 'entry' ? entryItem(node) : factItem(node);
  }

  protected parentOf(node: BlackboardNode): BlackboardNode | undefined {
    return node.kind === 'namespace' ? undefined : node.parent;
  }

  protected ledgerOf(node: BlackboardNode): FolderLedger {
    return node.ledger;
  }

  private async read(): Promise<void> {
    const ledgers = this.registry.all();
    for (const ledger of [...this.entries.keys()])
      if (!ledgers.includes(ledger) || !ledger.services) this.entries.delete(ledger);
    for (const ledger of ledgers) {
      const services = ledger.services;
      if (services) this.entries.set(ledger, await services.blackboard.query({}, listed));
    }
    this.scheduleExpiry();
    this.refresh();
  }

  /** Expired entries vanish for every reader at their instant, without a write: read again then. */
  private scheduleExpiry(): void {
    clearTimeout(this.expiry);
    const next = Math.min(...[...this.entries.values()].flat().map((e) => e.expires_at ?? Infinity));
    if (Number.isFinite(next)) this.expiry = setTimeout(() => this.reload(), Math.max(50, next - Date.now() + 20));
  }
}
