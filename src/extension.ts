// The entry point VS Code loads (dist/extension.js). Kept tiny: everything is built by
// AgentLedgerExtension, and nothing heavy (sql.js, Git) is loaded before a ledger is opened.
import type * as vscode from 'vscode';
import type { AgentLedgerApi } from './vscode/api';
import { AgentLedgerExtension } from './vscode/agentLedgerExtension';

/** Set by esbuild's banner on the bundle's first line (undefined when run from sources). */
declare const __agentLedgerLoadStart: number | undefined;

// This module's body runs after every module it imports: the bundle's load cost ends here.
const moduleLoadMs = typeof __agentLedgerLoadStart === 'number' ? performance.now() - __agentLedgerLoadStart : 0;

let current: AgentLedgerExtension | undefined;

export function activate(context: vscode.ExtensionContext): AgentLedgerApi {
  const activateStart = performance.now();
  const extension = new AgentLedgerExtension(context);
  current = extension;
  context.subscriptions.push(extension);
  extension.start();
  const activateMs = performance.now() - activateStart;
  extension.log.info(`activated in ${activateMs.toFixed(1)} ms (+ ${moduleLoadMs.toFixed(1)} ms loading the bundle)`);
  return extension.api({ moduleLoadMs, activateMs });
}

export function deactivate(): Promise<void> | undefined {
  // Everything is disposed through context.subscriptions; runners get the time to stop their
  // agents first (VS Code waits for this promise), so each agent's execution log is written.
  const stopping = current?.runners.stopAll();
  current = undefined;
  return stopping;
}
