import type * as vscode from 'vscode';
import { WebviewTypes } from '../../constants';
import type { FolderPipelineChange, PipelineWatcher } from '../../views/pipelines/pipelineWatcher';
import { LivePanels } from '../livePanels';
import { PipelinePanel } from './pipelinePanel';

/**
 * The open pipeline panels: one per pipeline, keyed by its folder as the engine names it
 * (`PipelineDetail.workspace`, so events find the panel), each re-read when one of its pipeline's
 * events reaches the store (opening it again re-reads it too), and restored after a reload.
 */
export type PipelinePanels = LivePanels<PipelinePanel, string, FolderPipelineChange>;

export function pipelinePanels(
  extensionUri: vscode.Uri,
  watcher: PipelineWatcher,
  log: vscode.LogOutputChannel,
): PipelinePanels {
  return new LivePanels(
    WebviewTypes.Pipeline,
    watcher.registry,
    String,
    (ledger, workspace: string, restored) => new PipelinePanel(extensionUri, log, ledger, workspace, restored),
    (state) => (typeof state.workspace === 'string' ? state.workspace : undefined),
    {
      changes: {
        event: watcher.onDidChange,
        concerns: (panel, { ledger, change }) =>
          panel.ledger === ledger && (!change || change.workspaces.includes(panel.workspace)),
      },
      onReveal: (panel) => void panel.update(true),
      log: { log, what: 'pipeline panel' },
    },
  );
}
