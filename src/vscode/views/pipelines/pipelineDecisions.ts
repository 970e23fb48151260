import type { PipelineDetail } from '../../../core/pipelines/pipelineQueries';
import type { DecisionRecord } from '../../../core/pipelines/engine/pipelineState';
import type { FolderLedger } from '../../ledger/folderLedger';
import { personName } from '../../../views/person';
import { WalkthroughKeys, walkthroughDone } from '../../walkthrough/walkthroughProgress';

/** A pipeline by JSON-safe coordinates (webview state, notifications, command arguments, tests). */
export interface PipelineTarget {
  /** The workspace folder's path. */
  folder: string;
  /** `.specs/<yyyymmdd>-<slug>` (relative to the folder) or the pipeline folder's path. */
  workspace: string;
}

export interface EditorDecision {
  /** `approve`, `reject`, or any option the waiting action lists (`done`, `skip`, `abandon`). */
  decision: string;
  comment?: string | null;
  /** The checkpoint the person saw: the engine refuses the decision if another one waits by now. */
  checkpoint: string | null;
}

/**
 * Who decides in the editor: the OS account the editor runs as, like the CLI's default — the
 * name that appears beside the decision in the pipeline's history.
 */
export function editorUser(): string {
  return personName();
}

/**
 * Every decision taken in the editor (webview buttons, tree and palette commands, notification
 * buttons) goes through here to the engine, recorded as `via: 'editor'`. A stale button — its
 * checkpoint no longer the waiting one — is refused by the engine, not silently applied.
 */
export async function decideInEditor(
  ledger: FolderLedger,
  workspace: string,
  d: EditorDecision,
): Promise<{ decision: DecisionRecord; pipeline: PipelineDetail }> {
  const services = await ledger.require();
  const decided = await services.pipelines.decide(workspace, {
    decision: d.decision,
    comment: d.comment ?? null,
    by: editorUser(),
    via: 'editor',
    checkpoint: d.checkpoint,
  });
  walkthroughDone(WalkthroughKeys.Decided);
  return decided;
}
