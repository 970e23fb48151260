import * as path from 'node:path';
import * as vscode from 'vscode';
import { LedgerError } from '../../core/errors';
import { formatAge } from '../../core/format';
import type { PipelineModel } from '../../shared/protocol';
import type { FolderLedger } from '../ledger/folderLedger';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import type { PipelinesNode } from '../views/pipelines/pipelineItems';
import { decideInEditor } from '../views/pipelines/pipelineDecisions';
import { decisionSummary } from '../../views/pipelineText';
import type { PipelineTarget } from '../views/pipelines/pipelineDecisions';
import { checkpointTitle } from '../../views/pipelineText';
import { pipelineModel, readFlow } from '../../views/pipelineModel';
import type { PipelinePanels } from '../webviews/pipeline/pipelinePanels';

/**
 * What a pipeline command may be given: a Pipelines view node (context menus, inline buttons), a
 * target with the answer already chosen (notifications, webviews, tests), or nothing (the palette:
 * the person picks).
 */
export type PipelineArg =
  | PipelinesNode
  | (PipelineTarget & { checkpoint?: string; decision?: string; comment?: string; path?: string })
  | undefined;

interface Resolved {
  ledger: FolderLedger;
  workspace: string;
  /** The checkpoint the person saw (null: whatever waits now). */
  checkpoint: string | null;
  decision?: string;
  comment?: string;
  path?: string;
}

export interface DecisionResult {
  checkpoint: string;
  decision: string;
  status: string;
  currentPhase: string;
}

/** What each answer does, as the decision pick and the reject box say it. */
function optionDetail(option: string, w: NonNullable<PipelineModel['waiting']>): string {
  if (option === 'approve')
    return w.retryLimit ? 'Accept the work as it is and continue' : 'Continue to the next phase';
  if (option === 'reject')
    return w.retryLimit
      ? 'Abandon the pipeline'
      : `Send the pipeline back to ${w.rejectTo ?? 'revise'} with your comment`;
  if (option === 'done') return 'You did the task: continue';
  if (option === 'skip') return 'Leave the task undone and continue';
  if (option === 'abandon') return 'Stop the pipeline';
  return '';
}

/** Open, approve, reject (request changes), decide and open artifacts of pipelines. */
export class PipelineCommands {
  constructor(
    private readonly registry: LedgerRegistry,
    private readonly panels: PipelinePanels,
  ) {}

  async open(arg: PipelineArg): Promise<PipelineTarget | undefined> {
    const target = await this.resolve(arg, 'Open which pipeline?', false);
    if (!target) return undefined;
    const services = await target.ledger.require();
    // The engine's own name for it, whatever form the caller used: panel events are keyed by it.
    const workspace = (await services.pipelines.detail(target.workspace)).workspace;
    this.panels.open(target.ledger, workspace);
    return { folder: target.ledger.root, workspace };
  }

  approve(arg: PipelineArg): Promise<DecisionResult | undefined> {
    return this.decideWith(arg, 'approve');
  }

  /** Reject = request changes: an ordinary checkpoint needs a comment, which the agent revises with. */
  reject(arg: PipelineArg): Promise<DecisionResult | undefined> {
    return this.decideWith(arg, 'reject');
  }

  /** Any option the waiting action lists (a human gate's `skip`), picked or given. */
  decide(arg: PipelineArg): Promise<DecisionResult | undefined> {
    return this.decideWith(arg, undefined);
  }

  async openArtifact(arg: PipelineArg): Promise<string | undefined> {
    if (arg && 'kind' in arg && arg.kind === 'phase' && arg.phase.artifact?.exists)
      return this.show(arg.phase.artifact.path);
    const target = await this.resolve(arg, 'Open an artifact of which pipeline?', false);
    if (!target) return undefined;
    const detail = await (await target.ledger.require()).pipelines.detail(target.workspace);
    if (target.path) {
      const file = path.resolve(detail.folder, target.path);
      if (path.relative(detail.folder, file).startsWith('..'))
        throw new LedgerError('ValidationError', `${target.path} is not a file of ${detail.workspace}`);
      return this.show(file);
    }
    if (detail.artifacts.length === 0) {
      void vscode.window.showInformationMessage(`${detail.title} has no artifacts yet.`);
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      detail.artifacts.map((a) => ({ label: a.name, description: detail.workspace, file: a.path })),
      { placeHolder: `Open which artifact of ${detail.title}?` },
    );
    return picked ? this.show(picked.file) : undefined;
  }

  private async show(file: string): Promise<string> {
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
    return file;
  }

  private async decideWith(
    arg: PipelineArg,
    fixed: 'approve' | 'reject' | undefined,
  ): Promise<DecisionResult | undefined> {
    const target = await this.resolve(
      arg,
      fixed === 'approve' ? 'Approve the checkpoint of which pipeline?' : 'Decide the checkpoint of which pipeline?',
      true,
    );
    if (!target) return undefined;
    const services = await target.ledger.require();
    const model = pipelineModel(
      await services.pipelines.detail(target.workspace),
      { name: target.ledger.name, root: target.ledger.root },
      readFlow(services),
    );
    const w = model.waiting;
    // Nothing waits: let the engine say so, in its words.
    let decision = fixed ?? target.decision ?? (w ? await this.pickOption(w) : 'approve');
    if (!decision) return undefined;
    if (w?.kind === 'human_gate')
      decision = decision === 'approve' ? 'done' : decision === 'reject' ? 'abandon' : decision;
    let comment = target.comment;
    if (comment === undefined && w && decision !== 'approve' && decision !== 'done') {
      comment = await this.askComment(w, decision);
      if (comment === undefined) return undefined;
    }
    const result = await decideInEditor(target.ledger, target.workspace, {
      decision,
      comment: comment ?? null,
      checkpoint: target.checkpoint ?? w?.name ?? null,
    });
    void vscode.window.showInformationMessage(decisionSummary(result));
    return {
      checkpoint: result.decision.name,
      decision: result.decision.decision,
      status: result.pipeline.status,
      currentPhase: result.pipeline.currentPhase,
    };
  }

  private async pickOption(w: NonNullable<PipelineModel['waiting']>): Promise<string | undefined> {
    const picked = await vscode.window.showQuickPick(
      w.options.map((o) => ({ label: o, detail: optionDetail(o, w) })),
      { placeHolder: `${w.label}: your decision`, ignoreFocusOut: true },
    );
    return picked?.label;
  }

  /** Undefined when the person dismisses the box. */
  private askComment(w: NonNullable<PipelineModel['waiting']>, decision: string): Thenable<string | undefined> {
    const requestsChanges = decision === 'reject' && w.kind === 'checkpoint' && !w.retryLimit;
    return vscode.window.showInputBox({
      title: `${w.label}: ${decision}`,
      prompt: requestsChanges
        ? `What should change? The pipeline goes back to ${w.rejectTo ?? 'revise'}, and the agent reads your comment.`
        : `${optionDetail(decision, w)}. A comment for the record (optional).`,
      placeHolder: requestsChanges ? 'e.g. Bound the retries and name the config option' : undefined,
      ignoreFocusOut: true,
      validateInput: (v) =>
        requestsChanges && v.trim() === '' ? 'Say what to change: the agent revises with this comment.' : undefined,
    });
  }

  private async resolve(arg: PipelineArg, placeHolder: string, waitingOnly: boolean): Promise<Resolved | undefined> {
    if (arg && 'kind' in arg) {
      if (arg.kind === 'pipeline')
        return { ledger: arg.ledger, workspace: arg.summary.workspace, checkpoint: arg.summary.waiting?.name ?? null };
      const phase = arg.kind === 'phase' ? arg : arg.parent;
      return { ledger: arg.ledger, workspace: phase.detail.workspace, checkpoint: phase.detail.waiting?.name ?? null };
    }
    if (arg && 'folder' in arg) {
      const ledger = this.registry.byPath(arg.folder);
      if (!ledger) throw new LedgerError('NotFound', `${arg.folder} is not a folder of this window's workspace`);
      return {
        ledger,
        workspace: arg.workspace,
        checkpoint: arg.checkpoint ?? null,
        decision: arg.decision,
        comment: arg.comment,
        path: arg.path,
      };
    }
    const ledger = await this.registry.pick(undefined, 'Which folder?');
    if (!ledger) return undefined;
    const services = await ledger.require();
    const { pipelines } = await services.pipelines.list(waitingOnly ? { status: 'awaiting_human' } : {});
    if (pipelines.length === 0) {
      void vscode.window.showInformationMessage(
        waitingOnly ? `No pipeline in ${ledger.name} waits for a decision.` : `No pipelines in ${ledger.name} yet.`,
      );
      return undefined;
    }
    const labelOf = (id: string): string | undefined => {
      try {
        return services.pipelines.resources.flow().phases.find((p) => p.id === id)?.label;
      } catch {
        return undefined; // a broken flow override: ids instead of labels
      }
    };
    const picked = await vscode.window.showQuickPick(
      pipelines.map((p) => ({
        label: p.title,
        description: p.waiting ? `waits at ${checkpointTitle(p.waiting.name, labelOf)}` : p.status.replace('_', ' '),
        detail: `${p.workspace} · effort ${p.effort} · updated ${formatAge(p.updatedAt)}`,
        workspace: p.workspace,
        checkpoint: p.waiting?.name ?? null,
      })),
      { placeHolder, matchOnDescription: true, matchOnDetail: true },
    );
    return picked ? { ledger, workspace: picked.workspace, checkpoint: picked.checkpoint } : undefined;
  }
}
