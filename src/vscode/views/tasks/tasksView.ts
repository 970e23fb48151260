import * as vscode from 'vscode';
import { Views } from '../../constants';
import type { FolderLedger } from '../../ledger/folderLedger';
import type { LedgerRegistry } from '../../ledger/ledgerRegistry';
import { LedgerTreeView } from '../ledgerTreeView';
import { looseTasksItem, taskItem, workflowItem } from './taskItems';
import type { TaskNode, TasksNode, WorkflowNode } from './taskItems';
import { filterActive, filterText, listedWorkflows, taskShown } from '../../../views/taskText';
import type { TaskFilter } from '../../../views/taskText';
import type { TreeTask } from '../../../core/tasks/taskTree';
import { WalkthroughKeys, walkthroughDone } from '../../walkthrough/walkthroughProgress';

/** Set while the Tasks view hides rows (the Clear Filter button shows). */
export const tasksFilteredKey = 'agentLedger.tasksFiltered';

/** How often a visible view re-reads while tasks run, so their elapsed time keeps moving. */
const tickMs = 30_000;

/** The Tasks view: workflows → tasks → sub-tasks of every folder's ledger, live. */
export class TasksView extends LedgerTreeView<TasksNode> {
  private ticker: NodeJS.Timeout | undefined;
  private _filter: TaskFilter = {};

  constructor(registry: LedgerRegistry, log: vscode.LogOutputChannel) {
    super(Views.Tasks, registry, log);
    this.ticker = setInterval(() => void this.tick(), tickMs);
    this._register({ dispose: () => clearInterval(this.ticker) });
  }

  get filter(): TaskFilter {
    return this._filter;
  }

  /** Hides rows (done tasks, all but what needs me, all but one agent's); the view's title says so. */
  setFilter(filter: TaskFilter): void {
    this._filter = filter;
    this.view.description = filterActive(filter) ? filterText(filter) : undefined;
    void vscode.commands.executeCommand('setContext', tasksFilteredKey, filterActive(filter));
    this.refresh();
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
    const nodes: TasksNode[] = listedWorkflows(roots.workflows).map((workflow): WorkflowNode => ({
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
    const shown = rows.filter((r) => r.childCount > 0 || taskShown(r.task, this._filter, r.completionReviewed));
    // The view was open before the first task came (so `onView:` never fired): a task shown in it is the step done.
    if (shown.length && this.visible) walkthroughDone(WalkthroughKeys.WatchedTask);
    const rewound = await this.rewound(node.ledger, shown);
    return shown.map((r): TaskNode => ({
      kind: 'task',
      ledger: node.ledger,
      task: r.task,
      childCount: r.childCount,
      completionReviewed: r.completionReviewed,
      rewound: rewound.has(r.task.id),
      parent: node,
    }));
  }

  /** The tasks among `rows` whose last rewind can be undone (only those that can be rewound are asked). */
  private async rewound(ledger: FolderLedger, rows: readonly TreeTask[]): Promise<Set<number>> {
    const out = new Set<number>();
    const rewind = ledger.services?.rewind;
    if (!rewind) return out;
    for (const r of rows) {
      if (r.task.snapshot?.type !== 'git' || r.task.worktree) continue;
      const last = await rewind.lastRewind(r.task.id).catch(() => null);
      if (last?.undoable) out.add(r.task.id);
    }
    return out;
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
