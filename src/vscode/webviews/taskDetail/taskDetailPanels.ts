import type * as vscode from 'vscode';
import { WebviewTypes } from '../../constants';
import type { LedgerRegistry } from '../../ledger/ledgerRegistry';
import { LivePanels } from '../livePanels';
import { TaskDetailPanel } from './taskDetailPanel';

/** The open task detail panels: one per task (by id), refreshed when its folder's ledger changes, restored after a reload. */
export type TaskDetailPanels = LivePanels<TaskDetailPanel, number>;

export function taskDetailPanels(
  extensionUri: vscode.Uri,
  registry: LedgerRegistry,
  log: vscode.LogOutputChannel,
): TaskDetailPanels {
  return new LivePanels(
    WebviewTypes.TaskDetail,
    registry,
    String,
    (ledger, taskId: number, restored) => new TaskDetailPanel(extensionUri, log, ledger, taskId, restored),
    (state) => (typeof state.taskId === 'number' ? state.taskId : undefined),
    { log: { log, what: 'task detail' } },
  );
}
