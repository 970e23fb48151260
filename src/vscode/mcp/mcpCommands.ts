import * as path from 'node:path';
import * as vscode from 'vscode';
import { Settings } from '../constants';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import type { LedgerMcpProvider } from './mcpProvider';
import { clientConfigPath, clientLabels, mergeServerEntry, serverName, toEntry } from './clientConfigs';
import type { ClientKind, MergeResult } from './clientConfigs';
import { externalLaunch, shellLine } from './serverLaunch';
import { worktreesDirSetting } from '../worktreesSetting';
import { confinedPath } from '../../core/files/confinedPath';
import { plural } from '../../core/format';

/**
 * "Add to Claude Code / Cursor / Claude Desktop" and "Copy MCP server command": the same server
 * VS Code runs, written for clients outside the editor. Each resolves with what it did so that
 * tests (and other commands) can check it without reading notifications.
 */
export class McpCommands {
  constructor(
    private readonly registry: LedgerRegistry,
    private readonly provider: LedgerMcpProvider,
  ) {}

  async addTo(kind: ClientKind, folder?: vscode.Uri): Promise<MergeResult | undefined> {
    const label = clientLabels[kind];
    const ledger = await this.registry.pick(folder, `Add the Agent Ledger server of which folder to ${label}?`);
    if (!ledger) return undefined;
    const override = vscode.workspace.getConfiguration(Settings.Section).get<string>(Settings.ClaudeDesktopConfigPath);
    const file = clientConfigPath(kind, ledger.root, override);
    const project = kind !== 'claudeDesktop';
    // A project file (`.mcp.json`, `.cursor/mcp.json`) is never written through a link leading out.
    if (project) confinedPath(ledger.root, file);
    // Project files may be committed and read on other machines: `node`, not this machine's path
    // to it, and not this user's worktrees folder either.
    const launch = externalLaunch(this.provider.cliPath, ledger.root, this.provider.families(), {
      bareNode: project,
      worktreesDir: project ? undefined : worktreesDirSetting(),
    });
    const result = mergeServerEntry(file, serverName(kind, ledger.root), toEntry(launch));
    const where = file.startsWith(ledger.root + path.sep) ? path.relative(ledger.root, file) : file;
    const kept = result.otherServers.length ? ` (kept ${plural(result.otherServers.length, 'other server')})` : '';
    const what =
      result.status === 'unchanged'
        ? `"${result.name}" is already in ${where}`
        : `${result.status === 'added' ? 'Added' : 'Updated'} "${result.name}" in ${where}${kept}`;
    const restart =
      kind === 'claudeDesktop' ? ' Restart Claude Desktop to load it.' : ` ${label} starts it in this folder.`;
    void vscode.window
      .showInformationMessage(`${what}.${result.status === 'unchanged' ? '' : restart}`, 'Open File')
      .then((choice) => {
        if (choice) void vscode.window.showTextDocument(vscode.Uri.file(file));
      });
    return result;
  }

  /** Copies a shell line that serves the folder's ledger; resolves with the line. */
  async copyCommand(folder?: vscode.Uri): Promise<string | undefined> {
    const ledger = await this.registry.pick(folder, 'Copy the MCP server command of which folder?');
    if (!ledger) return undefined;
    const line = shellLine(
      externalLaunch(this.provider.cliPath, ledger.root, this.provider.families(), {
        bareNode: false,
        worktreesDir: worktreesDirSetting(),
      }),
    );
    await vscode.env.clipboard.writeText(line);
    void vscode.window.showInformationMessage(
      'Copied the Agent Ledger MCP server command. Any MCP client can run it (stdio).',
    );
    return line;
  }
}
