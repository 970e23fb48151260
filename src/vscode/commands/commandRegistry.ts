import * as vscode from 'vscode';
import { isLedgerError, isStoreError } from '../ledger/loadDomain';
import type { CommandId } from './commandIds';
import { errorMessage } from '../../core/errors';

// Command arguments come from VS Code (tree nodes, URIs, JSON from webviews and tests).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandHandler = (...args: any[]) => unknown;

/**
 * The one wrapper every command goes through (VS Code git's `createCommand`): it runs the
 * handler, and turns a failure into a log entry plus one message — a warning for expected
 * refusals of the domain, an error with "Show Log" for anything else. Failures are not rethrown,
 * so VS Code does not add a second, less helpful notification.
 */
export function registerCommand(
  id: CommandId,
  handler: CommandHandler,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (err) {
      reportError(id, err, log);
      return undefined;
    }
  });
}

export function reportError(id: string, err: unknown, log: vscode.LogOutputChannel): void {
  if (err instanceof vscode.CancellationError) return;
  if (isLedgerError(err) && !isStoreError(err)) {
    log.warn(`${id}: ${err.code}: ${err.message}`);
    void vscode.window.showWarningMessage(err.message);
    return;
  }
  log.error(`${id} failed:`, err instanceof Error ? err : String(err));
  const message = isStoreError(err)
    ? `Agent Ledger: the ledger store is unavailable: ${(err as Error).message}`
    : `Agent Ledger: ${errorMessage(err)}`;
  void vscode.window.showErrorMessage(message, 'Show Log').then((choice) => {
    if (choice) log.show(true);
  });
}
