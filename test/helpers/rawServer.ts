import { spawn } from 'node:child_process';
import { ledgerEnv } from './testLedger';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { cliPath } from './mcpClient';

export interface RawMessage {
  jsonrpc: string;
  id?: string | number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

/** `agent-ledger mcp serve` driven with raw bytes on stdin, as a broken or hostile client would. */
export interface RawServer {
  /** Writes bytes as they are (add the newline yourself). */
  write(bytes: string): void;
  /** Sends one JSON-RPC request and waits for its answer. */
  request(id: string | number, method: string, params?: unknown): Promise<RawMessage>;
  /** Waits for the answer to `id`. */
  answer(id: string | number, timeoutMs?: number): Promise<RawMessage>;
  /** Waits for a message matching `pred`. */
  next(pred: (m: RawMessage) => boolean, timeoutMs?: number): Promise<RawMessage>;
  messages(): RawMessage[];
  stderr(): string;
  /** Waits until stderr matches (it is a pipe of its own: it may lag behind stdout). */
  stderrMatching(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exitCode(): number | null | undefined;
  close(): Promise<void>;
}

/** Starts the built server on `workspace` and completes the 2025 handshake (unless `handshake: false`). */
export async function startRawServer(
  workspace: string,
  extraArgs: string[] = [],
  options: { handshake?: boolean } = {},
): Promise<RawServer> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [cliPath, 'mcp', 'serve', '--workspace', workspace, ...extraArgs],
    { stdio: 'pipe', env: ledgerEnv(workspace) },
  );
  let out = '';
  let err = '';
  let exit: number | null | undefined;
  const parsed: RawMessage[] = [];
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    let newline: number;
    while ((newline = out.indexOf('\n')) !== -1) {
      parsed.push(JSON.parse(out.slice(0, newline)) as RawMessage);
      out = out.slice(newline + 1);
    }
    for (const w of waiters) w();
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  child.stdin.on('error', () => undefined); // a server that died shows in exitCode(), not as an EPIPE here
  child.on('exit', (code, signal) => {
    exit = code ?? (signal ? -1 : null);
    for (const w of waiters) w();
  });
  const next = (pred: (m: RawMessage) => boolean, timeoutMs = 10_000): Promise<RawMessage> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = parsed.find(pred);
        if (found) {
          done();
          resolve(found);
        } else if (exit !== undefined) {
          done();
          reject(new Error(`the server exited (${exit}) without answering; stderr: ${err}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no answer within ${timeoutMs} ms; stderr: ${err}`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  const server: RawServer = {
    write: (bytes) => child.stdin.write(bytes),
    request: (id, method, params) => {
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) })}\n`,
      );
      return server.answer(id);
    },
    answer: (id, timeoutMs) => next((m) => m.id === id, timeoutMs),
    next,
    messages: () => [...parsed],
    stderr: () => err,
    stderrMatching: async (pattern, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(err)) {
        if (Date.now() > deadline) throw new Error(`stderr never matched ${pattern}: ${err}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return err;
    },
    exitCode: () => exit,
    close: async () => {
      if (exit !== undefined) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await exited;
    },
  };
  if (options.handshake === false) return server;
  await server.request(0, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw-frames', version: '1.0.0' },
  });
  server.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return server;
}
