import type * as vscode from 'vscode';
import type { Services } from '../../../app/services';
import { Views } from '../../constants';
import type { FolderLedger } from '../../ledger/folderLedger';
import type { LedgerRegistry } from '../../ledger/ledgerRegistry';
import { LedgerTreeView } from '../ledgerTreeView';
import { phaseItem, pipelineItem, pipelineTaskItem } from './pipelineItems';
import type { PhaseNode, PipelineNode, PipelinesNode, PipelineTaskNode } from './pipelineItems';
import type { PipelineWatcher } from './pipelineWatcher';
import { plural } from '../../../core/format';
import { errorMessage } from '../../../core/errors';

/** The view lists this many pipelines per folder (those waiting for a person come first). */
const listed = 100;

/**
 * The Pipelines view: pipeline → phases (state, duration, tokens, model, revision round, verdict)
 * → the implementation phase's tasks with their verdicts. The checkpoint or human gate a person
 * must decide is highlighted, and the view's badge counts the pipelines that wait for one —
 * kept current even while the view is hidden, since that is when the badge matters.
 */
export class PipelinesView extends LedgerTreeView<PipelinesNode> {
  private _badge = 0;

  constructor(registry: LedgerRegistry, watcher: PipelineWatcher, log: vscode.LogOutputChannel) {
    super(Views.Pipelines, registry, log);
    this._register(watcher.onDidChange(() => void this.updateBadge()));
    this._register(registry.onDidChangeFolders(() => void this.updateBadge()));
  }

  /** How many pipelines wait for a person (the badge; 0 shows none). */
  get badge(): number {
    return this._badge;
  }

  protected async folderChildren(ledger: FolderLedger): Promise<PipelinesNode[]> {
    const services = ledger.services;
    if (!services) return [];
    const labelOf = phaseLabels(services);
    return (await services.pipelines.list({ limit: listed })).pipelines.map((summary): PipelineNode => ({
      kind: 'pipeline',
      ledger,
      summary,
      labelOf,
    }));
  }

  protected async childrenOf(node: PipelinesNode): Promise<PipelinesNode[]> {
    if (node.kind === 'pipelineTask') return [];
    if (node.kind === 'phase') {
      if (node.phase.kind !== 'implementation') return [];
      return node.detail.tasks.map((task): PipelineTaskNode => ({
        kind: 'pipelineTask',
        ledger: node.ledger,
        parent: node,
        task,
      }));
    }
    const services = node.ledger.services;
    if (!services) return [];
    const detail = await services.pipelines.detail(node.summary.workspace);
    return detail.phases.map((phase): PhaseNode => ({
      kind: 'phase',
      ledger: node.ledger,
      parent: node,
      detail,
      phase,
    }));
  }

  protected treeItemOf(node: PipelinesNode): vscode.TreeItem {
    return node.kind === 'pipeline'
      ? pipelineItem(node)
      : node.kind === 'phase'
        ? phaseItem(node)
        : pipelineTaskItem(node);
  }

  protected parentOf(node: PipelinesNode): PipelinesNode | undefined {
    return node.kind === 'pipeline' ? undefined : node.parent;
  }

  protected ledgerOf(node: PipelinesNode): FolderLedger {
    return node.ledger;
  }

  private async updateBadge(): Promise<void> {
    let count = 0;
    for (const ledger of this.registry.all()) {
      try {
        count += (await ledger.services?.pipelines.list({ status: 'awaiting_human', limit: 1 }))?.total ?? 0;
      } catch (err) {
        this.log.warn(`[${ledger.name}] counting the waiting pipelines failed: ${errorMessage(err)}`);
      }
    }
    if (count === this._badge) return;
    this._badge = count;
    this.view.badge =
      count > 0
        ? { value: count, tooltip: `${plural(count, 'pipeline waits', 'pipelines wait')} for your decision` }
        : undefined;
  }
}

/** Phase ids → labels of the flow the engine runs; a flow that cannot be read leaves the ids. */
function phaseLabels(services: Services): (phaseId: string) => string | undefined {
  let labels: Map<string, string>;
  try {
    labels = new Map(services.pipelines.resources.flow().phases.map((p) => [p.id, p.label]));
  } catch {
    labels = new Map();
  }
  labels.set('setup', 'Create branch');
  return (id) => labels.get(id);
}
