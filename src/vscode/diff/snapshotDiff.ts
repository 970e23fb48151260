import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseId, taskKey } from '../../core/ids';
import type { ChangedFile } from '../../shared/protocol';
import { plural } from '../../core/format';
import { snapshotScheme } from '../constants';
import type { FolderLedger } from '../ledger/folderLedger';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import { WalkthroughKeys, walkthroughDone } from '../walkthrough/walkthroughProgress';

/**
 * Serves `agent-ledger-snapshot:/<workspace path>?folder=…&task=…` — a file as it was in a task's
 * snapshot — so VS Code's own diff editor can compare it with the file on disk. Snapshots never
 * change, so VS Code may cache what this returns.
 */
export class SnapshotContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly registry: LedgerRegistry) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const query = new URLSearchParams(uri.query);
    if (query.get('empty')) return '';
    const ledger = this.registry.byPath(query.get('folder') ?? '');
    if (!ledger) return '';
    const services = await ledger.require();
    const { task } = await services.queries.task(parseId('task', query.get('task')));
    if (!task.snapshot) return '';
    const truth = await services.truth();
    const content = await truth.fileAt(task.snapshot, uri.path.replace(/^\//, ''));
    if (!content) return '';
    // Text editors cannot show binary content usefully; say what it is instead.
    if (content.subarray(0, 8000).includes(0))
      return `(binary file, ${plural(content.length, 'byte')}, in the snapshot of ${taskKey(task.id)})`;
    return content.toString('utf8');
  }
}

function snapshotUri(ledger: FolderLedger, taskId: number, repoPath: string, empty = false): vscode.Uri {
  const query = new URLSearchParams({ folder: ledger.root, task: String(taskId), ...(empty ? { empty: '1' } : {}) });
  return vscode.Uri.from({ scheme: snapshotScheme, path: `/${repoPath}`, query: query.toString() });
}

/**
 * Opens VS Code's diff editor: the file in the task's snapshot on the left, the file on disk now
 * on the right (an empty side for a file the task added or deleted). Resolves with the two URIs.
 */
export async function openTaskFileDiff(
  ledger: FolderLedger,
  taskId: number,
  file: ChangedFile,
): Promise<{ left: vscode.Uri; right: vscode.Uri }> {
  walkthroughDone(WalkthroughKeys.OpenedDiff);
  const services = await ledger.require();
  const { task } = await services.queries.task(taskId);
  const truth = await services.truth();
  // Paths are relative to the workspace folder — or to the same folder of the task's worktree,
  // which may lie outside the workspace (agentLedger.worktreesDir).
  const root = task.worktree
    ? path.join(path.resolve(ledger.root, task.worktree), ...truth.workspacePath.split('/').filter(Boolean))
    : ledger.root;
  const left = snapshotUri(
    ledger,
    task.id,
    file.kind === 'renamed' && file.from ? file.from : file.path,
    file.kind === 'added',
  );
  const right =
    file.kind === 'deleted'
      ? snapshotUri(ledger, task.id, file.path, true)
      : vscode.Uri.file(path.join(root, ...file.path.split('/')));
  const title = `${path.posix.basename(file.path)} (${taskKey(task.id)} snapshot ↔ now)`;
  await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
  return { left, right };
}
