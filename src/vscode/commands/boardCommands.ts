import * as vscode from 'vscode';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import type { FolderLedger } from '../ledger/folderLedger';
import type { LivePanels } from '../webviews/livePanels';
import type { BoardPanel } from '../webviews/board/boardPanel';
import type { PlanGraphPanel } from '../webviews/planGraph/planGraphPanel';
import { resolveWorkflow } from './targets';
import type { WorkflowArg } from './targets';

/** What the board command may be given: a folder (a view's folder node, a URI, `{ folder }`) or nothing. */
export type BoardArg = vscode.Uri | { folder: string } | { ledger: FolderLedger } | undefined;

/** The Board and the plan graph webviews. */
export class BoardCommands {
  constructor(
    private readonly registry: LedgerRegistry,
    private readonly boards: LivePanels<BoardPanel, 'board'>,
    private readonly graphs: LivePanels<PlanGraphPanel, number>,
  ) {}

  async openBoard(arg: BoardArg): Promise<{ folder: string } | undefined> {
    const ledger =
      arg && 'ledger' in arg
        ? arg.ledger
        : await this.registry.pick(
            arg instanceof vscode.Uri ? arg : arg ? vscode.Uri.file(arg.folder) : undefined,
            'Open the board of which folder?',
          );
    if (!ledger) return undefined;
    await ledger.require();
    this.boards.open(ledger, 'board');
    return { folder: ledger.root };
  }

  async openPlanGraph(arg: WorkflowArg): Promise<{ folder: string; workflowId: number } | undefined> {
    const target = await resolveWorkflow(this.registry, arg, 'Open the plan graph of which workflow?');
    if (!target) return undefined;
    await target.ledger.require();
    this.graphs.open(target.ledger, target.workflowId);
    return { folder: target.ledger.root, workflowId: target.workflowId };
  }
}
