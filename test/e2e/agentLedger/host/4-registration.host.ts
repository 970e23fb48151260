// "Add to Claude Code / Cursor / Claude Desktop" merge our server into each client's file
// without touching the rest; "Copy MCP server command" gives a line any client can run.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { extension, folder } from './hostHelpers';

const readJson = (file: string): any => JSON.parse(readFileSync(file, 'utf8'));

function expectedArgs(): string[] {
  // The server's Node flags come first (src/app/serverNodeFlags.ts): a young generation capped at 1 MiB.
  return [
    '--max-semi-space-size=1',
    path.join(extension().extensionPath, 'dist', 'cli.js'),
    'mcp',
    'serve',
    '--workspace',
    folder(),
  ];
}

describe('registration commands', () => {
  const ws = (): vscode.Uri => vscode.Uri.file(folder());

  it('adds agent-ledger to .mcp.json (Claude Code) and keeps the other server', async () => {
    const file = path.join(folder(), '.mcp.json');
    writeFileSync(
      file,
      `${JSON.stringify({ mcpServers: { other: { command: 'other-server', args: ['--flag'] } } }, null, 2)}\n`,
    );
    const result = await vscode.commands.executeCommand<{ status: string }>('agentLedger.addToClaudeCode', ws());
    assert.equal(result.status, 'added');
    const json = readJson(file);
    assert.deepEqual(json.mcpServers.other, { command: 'other-server', args: ['--flag'] });
    assert.equal(json.mcpServers['agent-ledger'].command, 'node');
    assert.deepEqual(json.mcpServers['agent-ledger'].args, expectedArgs());
    // Running it again changes nothing.
    assert.equal(
      (await vscode.commands.executeCommand<{ status: string }>('agentLedger.addToClaudeCode', ws())).status,
      'unchanged',
    );
  });

  it('creates .cursor/mcp.json for Cursor', async () => {
    const result = await vscode.commands.executeCommand<{ file: string; status: string }>(
      'agentLedger.addToCursor',
      ws(),
    );
    assert.equal(result.file, path.join(folder(), '.cursor', 'mcp.json'));
    assert.deepEqual(Object.keys(readJson(result.file).mcpServers), ['agent-ledger']);
    assert.deepEqual(readJson(result.file).mcpServers['agent-ledger'].args, expectedArgs());
  });

  it('refuses a client file that is not JSON, leaving it as it was', async () => {
    const file = path.join(folder(), '.cursor', 'mcp.json');
    writeFileSync(file, '{ "mcpServers": { broken');
    assert.equal(await vscode.commands.executeCommand('agentLedger.addToCursor', ws()), undefined);
    assert.equal(readFileSync(file, 'utf8'), '{ "mcpServers": { broken');
  });

  it('adds a per-workspace entry to Claude Desktop’s file (path from the setting), keeping its other keys', async () => {
    const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'al-claude-desktop-')));
    const file = path.join(dir, 'claude_desktop_config.json');
    writeFileSync(
      file,
      JSON.stringify(
        { globalShortcut: 'Ctrl+Space', mcpServers: { fs: { command: 'npx', args: ['fs-server'] } } },
        null,
        4,
      ),
    );
    await vscode.workspace
      .getConfiguration('agentLedger')
      .update('claudeDesktopConfigPath', file, vscode.ConfigurationTarget.Global);
    try {
      const result = await vscode.commands.executeCommand<{ name: string; status: string }>(
        'agentLedger.addToClaudeDesktop',
        ws(),
      );
      assert.equal(result.status, 'added');
      const json = readJson(file);
      assert.equal(json.globalShortcut, 'Ctrl+Space');
      assert.deepEqual(json.mcpServers.fs, { command: 'npx', args: ['fs-server'] });
      assert.equal(result.name, `agent-ledger-${path.basename(folder())}`);
      const entry = json.mcpServers[result.name];
      // Claude Desktop starts outside any shell: an absolute runtime path, not `node`.
      assert.ok(path.isAbsolute(entry.command), entry.command);
      assert.ok(existsSync(entry.command));
      assert.deepEqual(entry.args, expectedArgs());
      assert.match(readFileSync(file, 'utf8'), /^\{\n {4}"globalShortcut"/, 'the file keeps its 4-space indentation');
    } finally {
      await vscode.workspace
        .getConfiguration('agentLedger')
        .update('claudeDesktopConfigPath', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('copies a runnable MCP server command', async () => {
    const line = await vscode.commands.executeCommand<string>('agentLedger.copyMcpServerCommand', ws());
    assert.equal(await vscode.env.clipboard.readText(), line);
    assert.ok(line.endsWith(`mcp serve --workspace ${folder()}`), line);
    assert.ok(line.includes(path.join(extension().extensionPath, 'dist', 'cli.js')), line);
    assert.ok(line.includes(' --max-semi-space-size=1 '), line);
  });
});
