import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import { Settings, mcpProviderId } from '../constants';
import { editorRuntimeLaunch, selectedFamilies } from './serverLaunch';
import { worktreesDirSetting } from '../worktreesSetting';
import type { LedgerDatabase } from '../ledger/ledgerDatabase';

/**
 * Gives VS Code (Copilot's agent mode) one Agent Ledger MCP server per workspace folder: the
 * bundled `dist/cli.js mcp serve --workspace <folder>` run by the editor's own runtime. Zero
 * setup: nothing to install, nothing written to the workspace. The definitions change (and VS
 * Code offers to restart the servers) when folders come and go or `agentLedger.toolFamilies`
 * changes — the families are part of the definition's version.
 *
 * A folder with a team ledger (`agentLedger.database`) gets the URL in the server's environment
 * (AGENT_LEDGER_DB), and its password from the secret storage only when VS Code starts the
 * server ({@link resolveMcpServerDefinition}), also by environment: never an argument, never in
 * the definitions VS Code lists or caches, never in a log.
 */
export class LedgerMcpProvider
  extends Disposable
  implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>
{
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeMcpServerDefinitions = this._onDidChange.event;

  constructor(
    private readonly extensionPath: string,
    private readonly extensionVersion: string,
    private readonly log: vscode.LogOutputChannel,
    private readonly database: LedgerDatabase,
  ) {
    super();
    this._register(database.onDidChange(() => this._onDidChange.fire()));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this._onDidChange.fire()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${Settings.Section}.${Settings.WorktreesDir}`)) this._onDidChange.fire();
        if (e.affectsConfiguration(`${Settings.Section}.${Settings.ToolFamilies}`)) {
          this.log.info(
            `tool families changed to ${this.families().join(', ')}: refreshing the MCP server definitions`,
          );
          this._onDidChange.fire();
        }
      }),
    );
    this._register(vscode.lm.registerMcpServerDefinitionProvider(mcpProviderId, this));
  }

  get cliPath(): string {
    return path.join(this.extensionPath, 'dist', 'cli.js');
  }

  families(): string[] {
    return selectedFamilies(vscode.workspace.getConfiguration(Settings.Section).get(Settings.ToolFamilies));
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    const families = this.families();
    const worktreesDir = worktreesDirSetting();
    const definitions = folders.flatMap((folder) => {
      let url: string | undefined;
      try {
        url = this.database.url(folder);
      } catch (err) {
        // Never fall back to the embedded store when a team ledger is meant: no server until the setting is right.
        this.log.error(`[${folder.name}] no MCP server: ${err instanceof Error ? err.message : String(err)}`);
        return [];
      }
      const launch = editorRuntimeLaunch(this.cliPath, folder.uri.fsPath, families, worktreesDir);
      const label = folders.length > 1 ? `Agent Ledger (${folder.name})` : 'Agent Ledger';
      const team = url
        ? `+db.${createHash('sha256').update(url).digest('hex').slice(0, 8)}.${this.database.generation}`
        : '';
      const version = `${this.extensionVersion}+${families.join('.') || 'none'}${worktreesDir ? '+worktrees' : ''}${team}`;
      // The password is added at start (resolve); one inherited from the editor's environment never applies.
      const env = url
        ? { ...launch.env, AGENT_LEDGER_DB: url, AGENT_LEDGER_DB_PASSWORD: null, PGPASSWORD: null }
        : launch.env;
      const definition = new vscode.McpStdioServerDefinition(label, launch.command, launch.args, env, version);
      definition.cwd = folder.uri;
      return [definition];
    });
    this.log.debug(
      `MCP definitions: ${definitions.map((d) => `${d.label} → ${d.args.join(' ')}`).join('; ') || 'none (no folder open)'}`,
    );
    return definitions;
  }

  /** Just before VS Code starts a server: a team ledger's password, from the secret storage, into its environment. */
  async resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): Promise<vscode.McpStdioServerDefinition> {
    const folder = server.cwd ? vscode.workspace.getWorkspaceFolder(server.cwd) : undefined;
    const team = folder ? await this.database.connection(folder) : undefined;
    if (team?.password) server.env = { ...server.env, AGENT_LEDGER_DB_PASSWORD: team.password };
    return server;
  }
}
