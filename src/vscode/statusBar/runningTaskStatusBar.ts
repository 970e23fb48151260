import * as vscode from 'vscode';
import type { Task } from '../../core/tasks/taskModel';
import { taskKey } from '../../core/ids';
import { truncate } from '../../core/format';
import { Commands } from '../commands/commandIds';
import { Disposable } from '../lifecycle';
import type { FolderLedger } from '../ledger/folderLedger';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import type { TaskTarget } from '../webviews/taskDetail/taskDetailPanel';

/**
 * The task in progress in the status bar: `● task-3 Add login · 40% — Wrote the form`. Several:
 * their count, and a click lists them. Hidden when nothing is in progress, and while this window's
 * runner runs agents: then the runner's entry is the one item for agents (no second item beside
 * it). Its icon is static: a task in progress is a ledger state, not a process (the runner's entry
 * spins for agents it runs).
 */
export class RunningTaskStatusBar extends Disposable {
  private readonly item = this._register(
    vscode.window.createStatusBarItem('agentLedger.runningTask', vscode.StatusBarAlignment.Left, 50),
  );
  private pending: NodeJS.Timeout | undefined;

  constructor(
    private readonly registry: LedgerRegistry,
    /** Whether this window's runner runs agents now, and when that changes. */
    private readonly runner?: { runsAgents(): boolean; onDidChange: vscode.Event<void> },
  ) {
    super();
    this.item.name = 'Agent Ledger: running task';
    this._register(registry.onDidChange(() => this.schedule()));
    if (runner) this._register(runner.onDidChange(() => this.schedule()));
    this._register(registry.onDidChangeFolders(() => this.schedule()));
    this._register({ dispose: () => clearTimeout(this.pending) });
    this.update();
  }

  /** What the entry shows now (tests). */
  get text(): string | undefined {
    return this.item.text || undefined;
  }

  private schedule(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      void this.update();
    }, 16);
  }

  private async update(): Promise<void> {
    const running: { ledger: FolderLedger; task: Task }[] = [];
    for (const ledger of this.registry.all()) {
      try {
        for (const task of (await ledger.tree?.running()) ?? []) running.push({ ledger, task });
      } catch {
        // A store that cannot be read right now shows nothing rather than a stale entry.
      }
    }
    if (running.length === 0 || this.runner?.runsAgents()) {
      this.item.hide();
      this.item.text = '';
      return;
    }
    if (running.length === 1) {
      const { ledger, task } = running[0];
      const progress = task.progress !== null ? ` · ${task.progress}%` : '';
      const milestone = task.lastMilestone ? ` — ${truncate(task.lastMilestone, 50)}` : '';
      this.item.text = `$(circle-filled) ${taskKey(task.id)} ${truncate(task.title, 40)}${progress}${milestone}`;
      this.item.tooltip = `Agent Ledger: ${task.title} (${taskKey(task.id)}) is in progress${task.lastMilestone ? `\nLast milestone: ${task.lastMilestone}` : ''}\nClick to open its timeline.`;
      this.item.command = {
        command: Commands.OpenTask,
        title: 'Open Task',
        arguments: [{ folder: ledger.root, taskId: task.id } satisfies TaskTarget],
      };
    } else {
      this.item.text = `$(circle-filled) ${running.length} tasks in progress`;
      this.item.tooltip = running
        .map(({ task }) => `${taskKey(task.id)} ${task.title}${task.progress !== null ? ` (${task.progress}%)` : ''}`)
        .join('\n');
      this.item.command = Commands.ShowRunningTasks;
    }
    this.item.accessibilityInformation = { label: this.item.text.replace(/\$\([^)]+\)\s*/g, '') };
    this.item.show();
  }
}
