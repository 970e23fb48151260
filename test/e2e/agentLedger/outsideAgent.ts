// An agent outside the editor (Claude Code, Cursor, a script): its own `mcp serve` process,
// spawned from the packaged extension's dist/cli.js, driven by the MCP SDK client over stdio.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export class OutsideAgent {
  private constructor(
    private readonly client: Client,
    private readonly stderr: () => string,
  ) {}

  static async connect(extensionDir: string, workspace: string): Promise<OutsideAgent> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(extensionDir, 'dist', 'cli.js'), 'mcp', 'serve', '--workspace', workspace],
      // The SDK passes only a few variables on by itself.
      env: { ...(process.env as Record<string, string>) },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'agent-ledger-e2e-agent', version: '1.0.0' });
    await client.connect(transport);
    return new OutsideAgent(client, () => stderr);
  }

  /** Calls a tool and returns its structured result; throws on an error result. */
  async call<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<T> {
    const result = await this.client.callTool({ name, arguments: args });
    const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
    if (result.isError) throw new Error(`${name} failed: ${text}\n${this.stderr()}`);
    return (result.structuredContent ?? JSON.parse(text)) as T;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

const run = promisify(execFile);

/** Runs the packaged `agent-ledger` CLI against the workspace; resolves with stdout. */
export async function ledgerCli(extensionDir: string, workspace: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [
    path.join(extensionDir, 'dist', 'cli.js'),
    ...args,
    '--workspace',
    workspace,
  ]);
  return stdout;
}
