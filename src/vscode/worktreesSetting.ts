import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Settings } from './constants';

/**
 * `agentLedger.worktreesDir`: where task worktrees go instead of `.agent-ledger/worktrees`.
 * Declared with `machine` scope, so only the user's own settings set it — a workspace's
 * `.vscode/settings.json` arrives with the repository and cannot move worktrees outside it.
 */
export function worktreesDirSetting(): string | undefined {
  const inspected = vscode.workspace.getConfiguration(Settings.Section).inspect<string>(Settings.WorktreesDir);
  const value = (inspected?.globalValue ?? '').trim();
  if (!value) return undefined;
  return path.resolve(value.replace(/^~(?=$|[\\/])/, os.homedir()));
}
