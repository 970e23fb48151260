import * as vscode from 'vscode';
import { taskKey } from '../../../core/ids';
import type { TaskDetailHostMessage, TaskDetailModel, TaskDetailWebviewMessage } from '../../../shared/protocol';
import { truncate } from '../../../core/format';
import { Commands } from '../../commands/commandIds';
import { WebviewTypes } from '../../constants';
import { openTaskFileDiff } from '../../diff/snapshotDiff';
import type { FolderLedger } from '../../ledger/folderLedger';
import { WebviewPanelBase } from '../webviewPanelBase';
import { measureLiveFiles, taskDetailModel } from '../../../views/taskDetailModel';
import type { LiveFiles } from '../../../views/taskDetailModel';
import { errorMessage } from '../../../core/errors';
import { WalkthroughKeys, walkthroughDone } from '../../walkthrough/walkthroughProgress';

/** The target other commands take: the folder's path and the task's id (JSON-safe, unlike a tree node). */
export interface TaskTarget {
  folder: string;
  taskId: number;
}

/** One task's detail: goal, outcome, timeline, files changed (click → diff), rewind. Live. */
export class TaskDetailPanel extends WebviewPanelBase<TaskDetailHostMessage, TaskDetailWebviewMessage> {
  private liveFiles: LiveFiles | null = null;
  private _model: TaskDetailModel | undefined;
  private measuring: Promise<void> | undefined;

  constructor(
    extensionUri: vscode.Uri,
    log: vscode.LogOutputChannel,
    readonly ledger: FolderLedger,
    readonly taskId: number,
    restored?: vscode.WebviewPanel,
  ) {
    super(
      extensionUri,
      log,
      { viewType: WebviewTypes.TaskDetail, title: taskKey(taskId), kind: 'taskDetail' },
      restored,
    );
  }

  get target(): TaskTarget {
    return { folder: this.ledger.root, taskId: this.taskId };
  }

  /** The last model posted (tests read it). */
  get model(): TaskDetailModel | undefined {
    return this._model;
  }

  /** Re-reads the ledger and posts; `measure` also re-measures a running task's files (a Git snapshot). */
  async update(measure = false): Promise<void> {
    const services = await this.ledger.require();
    if (measure) await this.measure();
    const model = await taskDetailModel(
      services,
      { name: this.ledger.name, root: this.ledger.root },
      this.taskId,
      this.liveFiles,
    );
    this._model = model;
    this.panel.title = `${model.task.key}: ${truncate(model.task.title, 40)}`;
    this.post({ type: 'taskDetail', model });
  }

  protected async onReady(): Promise<void> {
    walkthroughDone(WalkthroughKeys.OpenedTask);
    await this.update(this.liveFiles === null);
  }

  protected async onMessage(message: Exclude<TaskDetailWebviewMessage, { type: 'ready' }>): Promise<void> {
    switch (message.type) {
      case 'openDiff':
        await openTaskFileDiff(this.ledger, this.taskId, message.file);
        return;
      case 'openTask':
        await vscode.commands.executeCommand(Commands.OpenTask, {
          folder: this.ledger.root,
          taskId: message.taskId,
        } satisfies TaskTarget);
        return;
      case 'refresh':
        await this.update(true);
        return;
      case 'rewind':
        await vscode.commands.executeCommand(Commands.RewindTask, this.target);
        return;
      case 'undoRewind':
        await vscode.commands.executeCommand(Commands.UndoRewind, this.target);
        return;
      case 'resume':
        await vscode.commands.executeCommand(Commands.ResumeTask, this.target);
        return;
      case 'review':
        await vscode.commands.executeCommand(
          message.verdict === 'approved' ? Commands.ApproveReview : Commands.DismissReview,
          { ...this.target, ...(message.note ? { note: message.note } : {}) },
        );
        return;
      case 'exportWorkflow':
        await vscode.commands.executeCommand(Commands.ExportWorkflowReport, {
          folder: this.ledger.root,
          taskId: this.taskId,
        } satisfies TaskTarget);
        return;
    }
  }

  private measure(): Promise<void> {
    // Several refreshes at once share one snapshot.
    this.measuring ??= (async () => {
      const services = await this.ledger.require();
      this.post({ type: 'busy', busy: true });
      try {
        this.liveFiles = await measureLiveFiles(services, this.taskId);
      } catch (err) {
        this.log.warn(`measuring the files of ${taskKey(this.taskId)} failed: ${errorMessage(err)}`);
      } finally {
        this.post({ type: 'busy', busy: false });
      }
    })().finally(() => (this.measuring = undefined));
    return this.measuring;
  }
}
