import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { after } from 'node:test';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { cliPath } from './mcpClient';
import { cliJson } from './cli';
import { ledgerEnv } from './testLedger';

/** A running `agent-ledger mcp serve --http` child process. */
export interface HttpLedgerServer {
  /** `http://127.0.0.1:PORT/mcp`. */
  url: string;
  pid: number;
  process: ChildProcess;
  stderr(): string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL (the crash of a machine) and wait for the exit. */
  kill9(): Promise<void>;
}

const running = new Set<HttpLedgerServer>();
if (process.env.NODE_TEST_CONTEXT) {
  after(async () => {
    await Promise.all([...running].map((s) => s.stop().catch(() => undefined)));
  });
}

/**
 * Starts the built server over HTTP on a free loopback port and waits for its ready line. On
 * `AGENT_LEDGER_TEST_DB=postgres` it opens the workspace's PostgreSQL database (testLedger.ts).
 */
export async function startHttpServer(
  workspace: string,
  args: string[] = [],
  options: { env?: NodeJS.ProcessEnv; address?: string } = {},
): Promise<HttpLedgerServer> {
  const child = spawn(
    process.execPath,
    [cliPath, 'mcp', 'serve', '--workspace', workspace, '--http', options.address ?? '127.0.0.1:0', ...args],
    { env: { ...(options.env ?? ledgerEnv(workspace)), NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the HTTP server did not start:\n${stderr}`)), 60_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = / at (https?:\/\/\S+\/mcp) /.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the HTTP server exited (${code}) before it was ready:\n${stderr}`));
    });
  });
  const server: HttpLedgerServer = {
    url,
    pid: child.pid!,
    process: child,
    stderr: () => stderr,
    stop: async () => {
      running.delete(server);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    kill9: async () => {
      running.delete(server);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  running.add(server);
  return server;
}

/** A token made with the CLI, as a person would (`agent-ledger token create … --json`). */
export function makeToken(workspace: string, role: 'agent' | 'person' | 'admin', args: string[] = []): string {
  return cliJson<{ secret: string }>(['token', 'create', role, '--workspace', workspace, ...args]).secret;
}

const bearer = (token: string | undefined): Record<string, string> =>
  token === undefined ? {} : { Authorization: `Bearer ${token}` };

/** The SDK's v1 client (2025-11-25, `initialize`) over Streamable HTTP. */
export async function v1HttpClient(
  url: string,
  token?: string,
  capabilities?: Record<string, unknown>,
): Promise<V1Client> {
  const client = new V1Client(
    { name: 'agent-ledger-tests-v1', version: '1.0.0' },
    capabilities ? { capabilities } : undefined,
  );
  await client.connect(new V1HttpTransport(new URL(url), { requestInit: { headers: bearer(token) } }));
  return client;
}

/** The SDK's v2 client; `modern` negotiates 2026-07-28 (`server/discover`), `legacy` sends `initialize`. */
export async function v2HttpClient(
  url: string,
  token?: string,
  mode: 'modern' | 'legacy' = 'modern',
  capabilities: Record<string, unknown> = {},
): Promise<V2Client> {
  const client = new V2Client({ name: 'agent-ledger-tests-v2', version: '2.0.0' }, {
    capabilities,
    versionNegotiation: { mode: mode === 'modern' ? 'auto' : 'legacy' },
  } as never);
  await client.connect(new V2HttpTransport(new URL(url), { requestInit: { headers: bearer(token) } }));
  return client;
}

/**
 * One raw 2026-07-28 request, as a client without our SDK sends it: no session, the version, the
 * client's capabilities and its name in the body's `_meta`, and the headers the spec asks of HTTP
 * (`Mcp-Method`, `Mcp-Name` for a tool call) beside the content types and the bearer.
 */
export function modernRequest(
  method: string,
  params: Record<string, unknown>,
  options: { id?: number; token?: string; capabilities?: Record<string, unknown>; client?: string } = {},
): { body: Record<string, unknown>; headers: Record<string, string> } {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {},
    'io.modelcontextprotocol/clientInfo': { name: options.client ?? 'raw-http', version: '1' },
  };
  const name = method === 'tools/call' && typeof params.name === 'string' ? params.name : undefined;
  return {
    body: { jsonrpc: '2.0', id: options.id ?? 1, method, params: { ...params, _meta } },
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
  };
}

/** A raw 2026-07-28 tool call (modernRequest) as `fetch` takes it. */
export function modernToolCall(
  name: string,
  args: Record<string, unknown>,
  options: Parameters<typeof modernRequest>[2] = {},
): RequestInit {
  const { body, headers } = modernRequest('tools/call', { name, arguments: args }, options);
  return { method: 'POST', headers, body: JSON.stringify(body) };
}

/** The structured result of a tool call that must succeed. */
export function structured<T = Record<string, unknown>>(result: unknown): T {
  const r = result as { isError?: boolean; structuredContent?: unknown; content?: { text?: string }[] };
  if (r.isError) throw new Error(`the call failed: ${r.content?.[0]?.text}`);
  return (r.structuredContent ?? JSON.parse(r.content?.[0]?.text ?? '{}')) as T;
}

/** The `{ error }` of a tool call that must fail. */
export function toolError(result: unknown): { code: number; reason: string; message: string } {
  const r = result as { isError?: boolean; content?: { text?: string }[] };
  if (!r.isError) throw new Error(`the call was expected to fail: ${r.content?.[0]?.text}`);
  // Prose first, then the error as JSON.
  return (JSON.parse(r.content?.at(-1)?.text ?? '{}') as { error: { code: number; reason: string; message: string } })
    .error;
}
