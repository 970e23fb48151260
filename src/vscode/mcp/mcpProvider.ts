import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import { Settings, mcpProviderId } from '../constants';
import { editorRuntimeLaunch, selectedFamilies } from './serverLaunch';
import { worktreesDirSetting } from '../worktreesSetting';

/**
 * Gives VS Code (Copilot's agent mode) one Agent Ledger MCP server per workspace folder: the
 * bundled `dist/cli.js mcp serve --workspace <folder>` run by the editor's own runtime. Zero
 * setup: nothing to install, nothing written to the workspace. The definitions change (and VS
 * Code offers to restart the servers) when folders come and go or `agentLedger.toolFamilies`
 * changes — the families are part of the definition's version.
 */
export class LedgerMcpProvider extends Disposable implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeMcpServerDefinitions = this._onDidChange.event;

  constructor(
    private readonly extensionPath: string,
    private readonly extensionVersion: string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this._onDidChange.fire()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${Settings.Section}.${Settings.WorktreesDir}`)) this._onDidChange.fire();
        if (e.affectsConfiguration(`${Settings.Section}.${Settings.ToolFamilies}`)) {
          this.log.info(`tool families changed to ${this.families().join(', ')}: refreshing the MCP server definitions`);
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
    const definitions = folders.map((folder) => {
      const launch = editorRuntimeLaunch(this.cliPath, folder.uri.fsPath, families, worktreesDir);
      const label = folders.length > 1 ? `Agent Ledger (${folder.name})` : 'Agent Ledger';
      const version = `${this.extensionVersion}+${families.join('.') || 'none'}${worktreesDir ? '+worktrees' : ''}`;
      const definition = new vscode.McpStdioServerDefinition(label, launch.command, launch.args, launch.env, version);
      definition.cwd = folder.uri;
      return definition;
    });
    this.log.debug(`MCP definitions: ${definitions.map((d) => `${d.label} → ${d.args.join(' ')}`).join('; ') || 'none (no folder open)'}`);
    return definitions;
  }
}
