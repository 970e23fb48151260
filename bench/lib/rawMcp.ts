// A bare MCP client over stdio for timing a server's own start-up: newline-delimited JSON-RPC,
// no schema work of its own, so what it measures is the server's time (the SDK client also
// compiles a validator for every output schema it is listed; bench/startup.bench.ts measures
// that separately).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

export interface RawSession {
  pid: number;
  /** One request, answered within `timeoutMs`; rejects on a JSON-RPC error. */
  request(method: string, params: Record<string, unknown>, timeoutMs?: number): Promise<Record<string, unknown>>;
  notify(method: string, params?: Record<string, unknown>): void;
  /** Sends initialize and `notifications/initialized`, as every client does first. */
  initialize(): Promise<void>;
  close(): Promise<void>;
}

/** Starts `command args` and speaks JSON-RPC with it over stdin/stdout; `env` adds to PATH and HOME. */
export function rawSession(command: string, args: string[], cwd: string, env: Record<string, string> = {}): RawSession {
  const child: ChildProcess = spawn(command, args, {
    cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let buffer = '';
  let stderr = '';
  let nextId = 1;
  const waiting = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let end: number;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      const message = JSON.parse(line) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
      };
      const w = message.id === undefined ? undefined : waiting.get(message.id);
      if (!w) continue;
      waiting.delete(message.id!);
      if (message.error) w.reject(new Error(message.error.message));
      else w.resolve(message.result ?? {});
    }
  });
  child.on('exit', (code) => {
    for (const w of waiting.values()) w.reject(new Error(`server exited (${code}): ${stderr.slice(-600)}`));
    waiting.clear();
  });
  const send = (message: Record<string, unknown>): void =>
    void child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const session: RawSession = {
    pid: child.pid ?? 0,
    request(method, params, timeoutMs = 60_000) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`${method} timed out after ${timeoutMs} ms; stderr: ${stderr.slice(-600)}`));
        }, timeoutMs);
        waiting.set(id, {
          resolve: (r) => (clearTimeout(timer), resolve(r)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        });
        send({ id, method, params });
      });
    },
    notify(method, params = {}) {
      send({ method, params });
    },
    async initialize() {
      await session.request('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'agent-ledger-startup-bench', version: '1.0.0' },
      });
      session.notify('notifications/initialized');
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  return session;
}
