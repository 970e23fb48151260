// Shared by the in-host tests: the extension's API, the workspace folder, polling, and calling
// our MCP tools the way Copilot's agent mode does (vscode.lm.invokeTool).
import * as vscode from 'vscode';
import type { AgentLedgerApi } from '../../../../src/vscode/api';

export const extensionId = 'agent-ledger.agent-ledger';

export function extension(): vscode.Extension<AgentLedgerApi> {
  const ext = vscode.extensions.getExtension<AgentLedgerApi>(extensionId);
  if (!ext) throw new Error(`${extensionId} is not installed`);
  return ext;
}

export async function api(): Promise<AgentLedgerApi> {
  return extension().activate();
}

export function folder(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  if (!f) throw new Error('no workspace folder is open');
  return f.uri.fsPath;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 20 ms until it returns something truthy; resolves with it and the time it took. */
export async function until<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return { value, ms: performance.now() - start };
    } catch (err) {
      last = err;
    }
    if (performance.now() - start > timeoutMs)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`,
      );
    await sleep(20);
  }
}

/** Our tools in vscode.lm.tools, by their MCP name (`start_workflow`…). */
export function ledgerTools(): Map<string, vscode.LanguageModelToolInformation> {
  const tools = new Map<string, vscode.LanguageModelToolInformation>();
  for (const t of vscode.lm.tools) {
    const m = /^mcp_agent[-_]ledger_(.+)$/.exec(t.name);
    if (m) tools.set(m[1], t);
  }
  return tools;
}

/**
 * Starts the MCP servers VS Code knows and waits for ours to publish its tools. Definitions from
 * providers arrive asynchronously: start, look, retry (harness README).
 */
export async function startLedgerServer(timeoutMs = 60_000): Promise<Map<string, vscode.LanguageModelToolInformation>> {
  const { value } = await until(
    'the Agent Ledger MCP tools in vscode.lm.tools',
    async () => {
      // One attempt may wait on a server that never comes up: bound it and try again.
      if (!ledgerTools().has('start_workflow'))
        await Promise.race([
          vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true }),
          sleep(10_000),
        ]);
      const tools = ledgerTools();
      return tools.has('start_workflow') ? tools : undefined;
    },
    timeoutMs,
  );
  return value;
}

/** Calls one of our tools through VS Code and parses its JSON result; rejects on an error result. */
export async function invoke<T = Record<string, unknown>>(tool: string, input: Record<string, unknown>): Promise<T> {
  const info = ledgerTools().get(tool);
  if (!info) throw new Error(`tool ${tool} is not available; have ${[...ledgerTools().keys()].join(', ')}`);
  const result = await vscode.lm.invokeTool(info.name, { input, toolInvocationToken: undefined });
  const parts = result.content
    .filter((p): p is vscode.LanguageModelTextPart => p instanceof vscode.LanguageModelTextPart)
    .map((p) => p.value);
  // A result is its JSON; an error is prose first, then its JSON.
  const json = JSON.parse(parts.at(-1) ?? '{}') as T & { error?: { message: string } };
  if (json && typeof json === 'object' && 'error' in json && json.error)
    throw new Error(`${tool} failed: ${json.error.message}`);
  return json;
}

/** The Tasks view's rows, as one string (easier to read in a failure). */
export async function treeText(): Promise<string> {
  return (await (await api()).testing.tasksView()).join('\n');
}
