import * as vscode from 'vscode';
import { taskKey, workflowKey } from '../../core/ids';
import type { RewindResult } from '../../core/tasks/rewindService';
import type { ReviewRecord } from '../../core/tasks/taskReviews';
import type { ChangedFile } from '../../shared/protocol';
import { openTaskFileDiff } from '../diff/snapshotDiff';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import type { TaskDetailPanels } from '../webviews/taskDetail/taskDetailPanels';
import type { TaskTarget } from '../webviews/taskDetail/taskDetailPanel';
import { Commands } from './commandIds';
import { resolveTask, resolveWorkflow } from './targets';
import type { TaskArg, WorkflowArg } from './targets';
import { plural } from '../../core/format';
import { WalkthroughKeys, walkthroughDone } from '../walkthrough/walkthroughProgress';

/** How many paths a confirmation lists before "…and N more". */
const listedPaths = 25;

/** Commands on tasks and workflows: open, diff, rewind and undo, export, copy. */
export class TaskCommands {
  constructor(
    private readonly registry: LedgerRegistry,
    private readonly panels: TaskDetailPanels,
  ) {}

  async openTask(arg: TaskArg): Promise<TaskTarget | undefined> {
    const target = await resolveTask(this.registry, arg, 'Open which task?');
    if (!target) return undefined;
    await target.ledger.require();
    this.panels.open(target.ledger, target.taskId);
    return { folder: target.ledger.root, taskId: target.taskId };
  }

  async openFileDiff(arg: TaskTarget & { file: ChangedFile }): Promise<void> {
    const ledger = this.registry.byPath(arg.folder);
    if (ledger) await openTaskFileDiff(ledger, arg.taskId, arg.file);
  }

  /** Confirms with the list of files, snapshots the present, then puts the task's files back. */
  async rewind(arg: TaskArg): Promise<RewindResult | undefined> {
    const target = await resolveTask(this.registry, arg, 'Rewind which task to its snapshot?');
    if (!target) return undefined;
    const services = await target.ledger.require();
    const key = taskKey(target.taskId);
    const plan = await services.rewind.plan(target.taskId);
    if (plan.paths.length === 0) {
      void vscode.window.showInformationMessage(`${key} changed no files: there is nothing to rewind.`);
      return undefined;
    }
    const more = plan.paths.length > listedPaths ? `\n…and ${plan.paths.length - listedPaths} more` : '';
    const choice = await vscode.window.showWarningMessage(
      `Rewind ${plural(plan.paths.length, 'file')} to how they were when ${key} started?`,
      {
        modal: true,
        detail: `${plan.paths.slice(0, listedPaths).join('\n')}${more}\n\nThe present state is snapshotted first: "Undo Rewind" puts it back. HEAD, the index and branches are not touched.`,
      },
      'Rewind',
    );
    if (choice !== 'Rewind') return undefined;
    const result = await services.rewind.rewind(target.taskId, plan.paths);
    void vscode.window
      .showInformationMessage(`Rewound ${plural(result.paths.length, 'file')} of ${key}.`, 'Undo Rewind')
      .then((undo) => {
        if (undo)
          void vscode.commands.executeCommand(Commands.UndoRewind, {
            folder: target.ledger.root,
            taskId: target.taskId,
          } satisfies TaskTarget);
      });
    return result;
  }

  /** Answers a task's review requests where the person reads them (tree, notification, palette). */
  async review(arg: TaskArg, verdict: 'approved' | 'dismissed'): Promise<ReviewRecord | undefined> {
    const target = await resolveTask(
      this.registry,
      arg,
      verdict === 'approved' ? 'Approve the review of which task?' : 'Dismiss the review request of which task?',
    );
    if (!target) return undefined;
    const services = await target.ledger.require();
    // The task detail passes the person's note with its target.
    const note = arg && 'folder' in arg && typeof arg.note === 'string' ? arg.note : undefined;
    const record = await services.reviews.review({ taskId: target.taskId, verdict, ...(note ? { note } : {}) });
    walkthroughDone(WalkthroughKeys.Decided);
    void vscode.window.setStatusBarMessage(`Agent Ledger: ${record.taskId} review ${verdict}`, 5000);
    return record;
  }

  /** Lets a held task (its run was stopped) run again: the runner may launch its agent. */
  async resume(arg: TaskArg): Promise<{ taskId: string; resumedBy: string; heldBy: string } | undefined> {
    const target = await resolveTask(this.registry, arg, 'Resume which held task?');
    if (!target) return undefined;
    const services = await target.ledger.require();
    const resumed = await services.holds.resume(target.taskId);
    void vscode.window.setStatusBarMessage(
      `Agent Ledger: resumed ${resumed.taskId} (held by ${resumed.heldBy}); the runner may launch it again`,
      5000,
    );
    return resumed;
  }

  async undoRewind(arg: TaskArg): Promise<RewindResult | undefined> {
    const target = await resolveTask(this.registry, arg, 'Undo the last rewind of which task?');
    if (!target) return undefined;
    const services = await target.ledger.require();
    const key = taskKey(target.taskId);
    const last = await services.rewind.lastRewind(target.taskId);
    if (!last?.undoable) {
      void vscode.window.showInformationMessage(`${key} has no rewind to undo.`);
      return undefined;
    }
    const choice = await vscode.window.showWarningMessage(
      `Put back the ${plural(last.paths.length, 'file')} of ${key} as they were before the rewind?`,
      {
        modal: true,
        detail: `${last.paths.slice(0, listedPaths).join('\n')}${last.paths.length > listedPaths ? `\n…and ${last.paths.length - listedPaths} more` : ''}`,
      },
      'Undo Rewind',
    );
    if (choice !== 'Undo Rewind') return undefined;
    const result = await services.rewind.undo(target.taskId);
    void vscode.window.showInformationMessage(
      `Undid the rewind of ${key}: ${plural(result.paths.length, 'file')} put back.`,
    );
    return result;
  }

  /** Opens the workflow's Markdown report as a new, unsaved document (save or copy it from there). */
  async exportWorkflowReport(arg: WorkflowArg): Promise<{ workflow: string; text: string } | undefined> {
    const target = await resolveWorkflow(this.registry, arg);
    if (!target) return undefined;
    const services = await target.ledger.require();
    const text = await services.workflowReport(target.workflowId, new Date());
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: text });
    await vscode.window.showTextDocument(document, { preview: false });
    return { workflow: workflowKey(target.workflowId), text };
  }

  async copyTaskId(arg: TaskArg): Promise<string | undefined> {
    const target = await resolveTask(this.registry, arg, 'Copy the id of which task?');
    if (!target) return undefined;
    const key = taskKey(target.taskId);
    await vscode.env.clipboard.writeText(key);
    return key;
  }

  /** The status bar's click when several tasks run: pick one to open. */
  async showRunningTasks(): Promise<void> {
    const running = await Promise.all(
      this.registry.all().map(async (ledger) => ({ ledger, tasks: (await ledger.tree?.running()) ?? [] })),
    );
    const items = running.flatMap(({ ledger, tasks }) =>
      tasks.map((t) => ({
        label: `$(circle-filled) ${t.title}`,
        description: `${taskKey(t.id)}${t.progress !== null ? ` · ${t.progress}%` : ''}${this.registry.all().length > 1 ? ` · ${ledger.name}` : ''}`,
        detail: t.lastMilestone ?? undefined,
        target: { folder: ledger.root, taskId: t.id } satisfies TaskTarget,
      })),
    );
    if (items.length === 0) {
      void vscode.window.showInformationMessage('No agent task is running.');
      return;
    }
    const picked =
      items.length === 1
        ? items[0]
        : await vscode.window.showQuickPick(items, { placeHolder: 'Open which running task?' });
    if (picked) await this.openTask(picked.target);
  }
}
