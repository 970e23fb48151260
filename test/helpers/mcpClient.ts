import * as path from 'node:path';
import { after } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ledgerEnv } from './testLedger';

export const cliPath = path.resolve(__dirname, '../../dist/cli.js');

export interface ToolError {
  code: number;
  reason: string;
  message: string;
  data?: Record<string, unknown>;
}

export interface LedgerClient {
  client: Client;
  /** Calls a tool; resolves with its structured result or rejects with the tool's error. */
  call<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** Calls a tool that must fail; resolves with its error. */
  fail(name: string, args?: Record<string, unknown>): Promise<ToolError>;
  stderr(): string;
  close(): Promise<void>;
}

const open = new Set<LedgerClient>();
// A test that fails before closing its clients must not leave server processes holding the run
// open. Only under node:test (benchmarks use this helper too and must not start a test run).
if (process.env.NODE_TEST_CONTEXT) {
  after(async () => {
    await Promise.all([...open].map((c) => c.close().catch(() => undefined)));
  });
}

/**
 * The real SDK client over stdio against the built server, as an agent would use it. `env`: the
 * server's whole environment (a simulated machine: AGENT_LEDGER_MACHINE, its database password).
 * `cli`: another build of the server (a benchmark's baseline); dist/cli.js by default.
 */
export async function connect(
  workspace: string,
  extraArgs: string[] = [],
  options: { env?: NodeJS.ProcessEnv; cli?: string; capabilities?: Record<string, unknown> } = {},
): Promise<LedgerClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [options.cli ?? cliPath, 'mcp', 'serve', '--workspace', workspace, ...extraArgs],
    // On `AGENT_LEDGER_TEST_DB=postgres`, the workspace's own PostgreSQL database (testLedger.ts).
    env: {
      ...((options.env ?? (extraArgs.includes('--db') ? process.env : ledgerEnv(workspace))) as Record<string, string>),
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client(
    { name: 'agent-ledger-tests', version: '1.0.0' },
    options.capabilities ? { capabilities: options.capabilities } : undefined,
  );
  await client.connect(transport);
  const raw = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    const texts = (result.content as { type: string; text: string }[]).filter((c) => c.type === 'text');
    // An error result is a line of prose, then its JSON (src/mcp/toolResults.ts).
    const text = (result.isError ? texts.at(-1) : texts[0])?.text ?? '';
    return { result, json: JSON.parse(text) as Record<string, unknown> };
  };
  const ledgerClient: LedgerClient = {
    client,
    async call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
      const { result, json } = await raw(name, args);
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(json)}`);
      return (result.structuredContent ?? json) as T;
    },
    async fail(name: string, args: Record<string, unknown> = {}): Promise<ToolError> {
      const { result, json } = await raw(name, args);
      if (!result.isError) throw new Error(`${name} was expected to fail but returned ${JSON.stringify(json)}`);
      return (json as { error: ToolError }).error;
    },
    stderr: () => stderr,
    close: async () => {
      open.delete(ledgerClient);
      await client.close();
    },
  };
  open.add(ledgerClient);
  return ledgerClient;
}
