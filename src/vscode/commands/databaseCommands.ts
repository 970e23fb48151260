import * as vscode from 'vscode';
import { LedgerError } from '../../core/errors';
import { Settings } from '../constants';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';

/** Set Database Password: the team ledger's password, into VS Code's secret storage only. */
export class DatabaseCommands {
  constructor(private readonly registry: LedgerRegistry) {}

  /**
   * Asks the password of the folder's `agentLedger.database` (masked) and stores it in the
   * secret storage; an empty answer forgets it. `arg.password` (tests, other extensions) skips
   * the prompt. Resolves true when something was stored or forgotten.
   */
  async setPassword(arg?: { folder?: string; password?: string }): Promise<boolean> {
    const ledger = await this.registry.pick(
      arg?.folder ? vscode.Uri.file(arg.folder) : undefined,
      'Set the database password of which folder?',
    );
    if (!ledger) return false;
    const url = this.registry.database.url(ledger.folder);
    if (!url) {
      const open = 'Open Settings';
      void vscode.window
        .showWarningMessage(
          `${ledger.name} uses the embedded store: set agentLedger.database to a postgres:// URL (without the password) first.`,
          open,
        )
        .then((choice) => {
          if (choice)
            void vscode.commands.executeCommand(
              'workbench.action.openSettings',
              `${Settings.Section}.${Settings.Database}`,
            );
        });
      return false;
    }
    const password =
      typeof arg?.password === 'string'
        ? arg.password
        : await vscode.window.showInputBox({
            title: 'Agent Ledger: Set Database Password',
            prompt: `Password for ${url} — kept in VS Code's secret storage, never in settings.json. Empty: forget the stored one.`,
            password: true,
            ignoreFocusOut: true,
          });
    if (password === undefined) return false;
    if (password.includes('\0')) throw new LedgerError('ValidationError', 'the password holds a NUL character');
    await this.registry.database.setPassword(url, password);
    void vscode.window.showInformationMessage(
      password
        ? `Agent Ledger: the password for ${url} is stored in VS Code's secret storage.`
        : `Agent Ledger: the stored password for ${url} is forgotten.`,
    );
    return true;
  }
}
