import type * as vscode from 'vscode';
import { Views } from '../../constants';
import type { FolderLedger } from '../../ledger/folderLedger';
import type { LedgerRegistry } from '../../ledger/ledgerRegistry';
import { LedgerTreeView } from '../ledgerTreeView';
import { looseTasksItem, taskItem, workflowItem } from './taskItems';
import type { TaskNode, TasksNode, WorkflowNode } from './taskItems';

/** How often a visible view re-reads while tasks run, so their elapsed time keeps moving. */
const tickMs = 30_000;

/** The Tasks view: workflows → tasks → sub-tasks of every folder's ledger, live. */
export class TasksView extends LedgerTreeView<TasksNode> {
  private ticker: NodeJS.Timeout | undefined;

  constructor(registry: LedgerRegistry, log: vscode.LogOutputChannel) {
    super(Views.Tasks, registry, log);
    this.ticker = setInterval(() => void this.tick(), tickMs);
    this._register({ dispose: () => clearInterval(this.ticker) });
  }

  private async tick(): Promise<void> {
    if (!this.visible) return;
    for (const ledger of this.registry.all()) {
      const running = await ledger.tree?.running().catch(() => []);
      if (running?.length) return this.refresh();
    }
  }

  protected async folderChildren(ledger: FolderLedger): Promise<TasksNode[]> {
    const tree = ledger.tree;
    if (!tree) return [];
    const roots = await tree.roots();
    const nodes: TasksNode[] = roots.workflows.map((workflow): WorkflowNode => ({
      kind: 'workflow',
      ledger,
      workflow,
    }));
    if (roots.looseTasks > 0) nodes.push({ kind: 'loose', ledger, count: roots.looseTasks });
    return nodes;
  }

  protected async childrenOf(node: TasksNode): Promise<TasksNode[]> {
    const tree = node.ledger.tree;
    if (!tree) return [];
    const rows = await (node.kind === 'workflow'
      ? tree.topTasks(node.workflow.id)
      : node.kind === 'loose'
        ? tree.topTasks(null)
        : tree.subTasks(node.task.id));
    return rows.map((r): TaskNode => ({
      kind: 'task',
      ledger: node.ledger,
      task: r.task,
      childCount: r.childCount,
      completionReviewed: r.completionReviewed,
      parent: node,
    }));
  }

  protected treeItemOf(node: TasksNode): vscode.TreeItem {
    return node.kind === 'workflow'
      ? workflowItem(node)
      : node.kind === 'loose'
        ? looseTasksItem(node)
        : taskItem(node);
  }

  protected parentOf(node: TasksNode): TasksNode | undefined {
    return node.kind === 'task' ? node.parent : undefined;
  }

  protected ledgerOf(node: TasksNode): FolderLedger {
    return node.ledger;
  }
}
