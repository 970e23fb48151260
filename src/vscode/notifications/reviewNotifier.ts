import * as vscode from 'vscode';
import { taskKey } from '../../core/ids';
import type { LedgerEvent } from '../../core/events/eventLog';
import { truncate } from '../../core/format';
import { Commands } from '../commands/commandIds';
import { Settings } from '../constants';
import { Disposable } from '../lifecycle';
import type { FolderLedger, LedgerChange } from '../ledger/folderLedger';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import type { TaskTarget } from '../webviews/taskDetail/taskDetailPanel';

/** At most this many notifications per burst of events; the rest are summed up in one. */
const maxPerBurst = 3;

/**
 * Tells the person when an agent asks for them: an issue logged with `requires_human_review`, or
 * a task completed with `manual_review_needed`. It reads the events log from where it last
 * looked, so it sees what every process wrote, once; history from before the window opened is
 * not replayed.
 */
export class ReviewNotifier extends Disposable {
  private readonly cursors = new Map<FolderLedger, number>();
  /** Every notification shown, newest last (tests read it). */
  readonly shown: string[] = [];

  constructor(registry: LedgerRegistry) {
    super();
    this._register(registry.onDidChange((e) => this.onChange(e)));
  }

  /** Changes of one ledger are handled one after another (reads are asynchronous), so the cursor never skips or repeats. */
  private readonly queues = new Map<FolderLedger, Promise<void>>();

  private onChange(e: LedgerChange): void {
    const previous = this.queues.get(e.ledger) ?? Promise.resolve();
    const next = previous.then(() => this.handle(e)).catch(() => undefined); // an unreadable store is read again at the next change
    this.queues.set(e.ledger, next);
    void next.then(() => {
      if (this.queues.get(e.ledger) === next) this.queues.delete(e.ledger);
    });
  }

  private async handle(e: LedgerChange): Promise<void> {
    const { ledger } = e;
    if (e.reason === 'closed' || e.reason === 'failed') {
      this.cursors.delete(ledger);
      return;
    }
    if (e.reason === 'opened' || !this.cursors.has(ledger)) {
      this.cursors.set(ledger, await ledger.lastEventSeq());
      return;
    }
    const events = await ledger.eventsSince(this.cursors.get(ledger) ?? 0);
    if (events.length === 0) return;
    this.cursors.set(ledger, events[events.length - 1].seq);
    if (!vscode.workspace.getConfiguration(Settings.Section).get<boolean>(Settings.Notifications, true)) return;
    const wanted: { text: string; taskId: number }[] = [];
    for (const ev of events) {
      const m = await this.message(ledger, ev);
      if (m) wanted.push(m);
    }
    for (const m of wanted.slice(0, maxPerBurst)) this.notify(ledger, m.text, m.taskId);
    if (wanted.length > maxPerBurst)
      void vscode.window.showWarningMessage(
        `Agent Ledger: ${wanted.length - maxPerBurst} more review requests; see the Tasks view.`,
      );
  }

  private async message(ledger: FolderLedger, ev: LedgerEvent): Promise<{ text: string; taskId: number } | undefined> {
    if (ev.taskId === null) return undefined;
    const wanted =
      (ev.kind === 'issue.logged' && ev.payload.requiresHumanReview === true) ||
      (ev.kind === 'task.completed' && ev.payload.manualReviewNeeded === true);
    if (!wanted) return undefined;
    const title = await this.title(ledger, ev.taskId);
    if (ev.kind === 'issue.logged' && ev.payload.requiresHumanReview === true) {
      const description =
        typeof ev.payload.description === 'string' ? `: ${truncate(ev.payload.description, 160)}` : '';
      return {
        text: `An agent asks for human review on ${taskKey(ev.taskId)} "${title}"${description}`,
        taskId: ev.taskId,
      };
    }
    if (ev.kind === 'task.completed' && ev.payload.manualReviewNeeded === true) {
      const status = typeof ev.payload.status === 'string' ? ` (${ev.payload.status.replace('_', ' ')})` : '';
      return { text: `${taskKey(ev.taskId)} "${title}" finished${status} and needs manual review`, taskId: ev.taskId };
    }
    return undefined;
  }

  private async title(ledger: FolderLedger, taskId: number): Promise<string> {
    try {
      return truncate((await ledger.services?.queries.task(taskId))?.task.title ?? taskKey(taskId), 60);
    } catch {
      return taskKey(taskId);
    }
  }

  private notify(ledger: FolderLedger, text: string, taskId: number): void {
    this.shown.push(text);
    // Act where you read: the review is answered from the notification itself.
    const target = { folder: ledger.root, taskId } satisfies TaskTarget;
    void vscode.window.showWarningMessage(text, 'Approve', 'Dismiss', 'Open Task').then((choice) => {
      if (choice === 'Open Task') void vscode.commands.executeCommand(Commands.OpenTask, target);
      else if (choice === 'Approve') void vscode.commands.executeCommand(Commands.ApproveReview, target);
      else if (choice === 'Dismiss') void vscode.commands.executeCommand(Commands.DismissReview, target);
    });
  }
}
