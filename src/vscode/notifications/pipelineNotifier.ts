import * as vscode from 'vscode';
import type { PipelineDetail } from '../../core/pipelines/pipelineQueries';
import { truncate } from '../../core/format';
import { Commands } from '../commands/commandIds';
import type { PipelineArg } from '../commands/pipelineCommands';
import { Settings, Views } from '../constants';
import { Disposable } from '../lifecycle';
import type { FolderLedger } from '../ledger/folderLedger';
import type { PipelineWatcher, FolderPipelineChange } from '../views/pipelines/pipelineWatcher';
import { checkpointTitle } from '../../views/pipelineText';
import { errorMessage } from '../../core/errors';

/** At most this many notifications at once; the rest are summed up in one. */
const maxPerBurst = 3;

/**
 * Tells the person when a pipeline starts waiting for them at a checkpoint or human gate — the
 * agent is blocked until they decide — whichever process the agent runs in: "Pipeline X waits
 * for your decision at Checkpoint A" with Open / Approve / Reject… (Open / Done / Skip at a human
 * gate, where rejecting would abandon the whole pipeline from a toast). When a ledger opens, the
 * pipelines already waiting are announced too: they are the present, not history. Each wait is
 * announced once.
 */
export class PipelineNotifier extends Disposable {
  private readonly announced = new Set<string>();
  /** Every notification shown, newest last (tests read it). */
  readonly shown: string[] = [];

  constructor(
    watcher: PipelineWatcher,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(watcher.onDidChange((e) => void this.onChange(e)));
  }

  private async onChange({ ledger, change }: FolderPipelineChange): Promise<void> {
    const services = ledger.services;
    if (!services || (change && !change.kinds.includes('pipeline.waiting'))) return;
    if (!vscode.workspace.getConfiguration(Settings.Section).get<boolean>(Settings.PipelineNotifications, true)) return;
    try {
      const workspaces = change
        ? change.workspaces
        : (await services.pipelines.list({ status: 'awaiting_human' })).pipelines.map((p) => p.workspace);
      const details: PipelineDetail[] = [];
      for (const ws of workspaces) details.push(await services.pipelines.detail(ws));
      const waiting = details.filter((d) => d.status === 'awaiting_human' && d.waiting && !this.announced.has(key(d)));
      for (const d of waiting) this.announced.add(key(d));
      for (const d of waiting.slice(0, maxPerBurst)) this.notify(ledger, d);
      if (waiting.length > maxPerBurst) {
        const text = `Agent Ledger: ${waiting.length - maxPerBurst} more pipelines wait for your decision.`;
        this.shown.push(text);
        void vscode.window.showInformationMessage(text, 'Show Pipelines').then((choice) => {
          if (choice) void vscode.commands.executeCommand(`${Views.Pipelines}.focus`);
        });
      }
    } catch (err) {
      this.log.warn(`[${ledger.name}] reading the waiting pipelines failed: ${errorMessage(err)}`);
    }
  }

  private notify(ledger: FolderLedger, d: PipelineDetail): void {
    const w = d.waiting;
    if (!w) return;
    const where = checkpointTitle(w.name, (id) => d.phases.find((p) => p.id === id)?.label);
    const text = `Pipeline "${truncate(d.title, 60)}" waits for your decision at ${where}`;
    this.shown.push(text);
    const target = { folder: ledger.root, workspace: d.workspace, checkpoint: w.name };
    const gate = w.kind === 'human_gate';
    const actions = gate ? ['Open', 'Done', 'Skip'] : ['Open', 'Approve', 'Reject…'];
    void vscode.window.showInformationMessage(text, ...actions).then((choice) => {
      const run = (command: string, arg: PipelineArg): void => void vscode.commands.executeCommand(command, arg);
      if (choice === 'Open') run(Commands.OpenPipeline, target);
      else if (choice === 'Approve' || choice === 'Done') run(Commands.ApprovePipelineCheckpoint, target);
      else if (choice === 'Reject…') run(Commands.RejectPipelineCheckpoint, target);
      else if (choice === 'Skip') run(Commands.DecidePipelineCheckpoint, { ...target, decision: 'skip' });
    });
  }
}

/** One wait: the same checkpoint reached again (after a rejection) is a new one. */
function key(d: PipelineDetail): string {
  return `${d.folder}#${d.waiting?.name}#${d.waiting?.requestedAt ?? ''}`;
}
