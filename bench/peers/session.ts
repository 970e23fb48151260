// One MCP server process driven by the real SDK client over stdio, as an MCP client would drive
// it: its own process group (so a kill reaches every process it started), a roots list naming
// the project folder, a timeout on every request, and its memory read from /proc.
import { readdirSync, readFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** How to start one server: a program, its arguments, the environment it adds, its folder. */
export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** A tool call's answer: its text (all text parts joined) and its structured content if any. */
export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown> | undefined;
}

/** A running server with a connected client. */
export interface Session {
  /** Pid of the process the transport started (the process group leader). */
  pid: number;
  /** Calls a tool; rejects on a protocol error, a timeout or an `isError` result. */
  call(name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<ToolAnswer>;
  /** Lists the tools (timed by the caller). */
  listTools(): Promise<string[]>;
  /** VmRSS in bytes of the server process: the largest process in its tree (a wrapper's child). */
  rss(): number;
  /** Stderr collected so far (the last 20 KB). */
  stderr(): string;
  /** Messages the client could not parse (a server writing non-protocol text on stdout). */
  strayOutput(): string[];
  /** SIGKILL to the whole process group, at once. */
  kill(): void;
  /** Closes the client, then kills whatever of the group is left. */
  close(): Promise<void>;
}

const live = new Set<number>();
const setsid = existsSync('/usr/bin/setsid')
  ? '/usr/bin/setsid'
  : existsSync('/bin/setsid')
    ? '/bin/setsid'
    : undefined;

/** Kills every process group still open (also run at exit, so a failed run leaves nothing behind). */
export function killAll(): void {
  for (const pid of live) killGroup(pid);
  live.clear();
}
process.on('exit', killAll);

function killGroup(pid: number): void {
  for (const target of setsid ? [-pid, pid] : [pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Starts the server and connects the client (initialize handshake included), within `timeoutMs`. */
export async function openSession(launch: Launch, timeoutMs = 60_000): Promise<Session> {
  // setsid makes the server its own process group leader with the same pid (the SDK spawns it
  // without `detached`, so it is never a group leader already and setsid does not fork).
  const transport = new StdioClientTransport({
    command: setsid ?? launch.command,
    args: setsid ? [launch.command, ...launch.args] : launch.args,
    env: launch.env,
    cwd: launch.cwd,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-20_000);
  });
  const stray: string[] = [];
  const client = new Client({ name: 'agent-ledger-peer-bench', version: '1.0.0' }, { capabilities: { roots: {} } });
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: [{ uri: pathToFileURL(launch.cwd).href, name: path.basename(launch.cwd) }],
  }));
  client.onerror = (e) => {
    if (stray.length < 20) stray.push(e.message.slice(0, 200));
  };
  const connecting = client.connect(transport, { timeout: timeoutMs });
  const pid = transport.pid;
  if (pid) live.add(pid);
  try {
    await withTimeout(connecting, timeoutMs, 'initialize');
  } catch (e) {
    if (transport.pid) killGroup(transport.pid);
    throw new Error(`${(e as Error).message}; stderr: ${err.slice(-600)}`);
  }
  const serverPid = transport.pid ?? pid ?? 0;
  live.add(serverPid);
  return {
    pid: serverPid,
    async call(name, args, callTimeout = timeoutMs) {
      const result = await client.callTool({ name, arguments: args }, undefined, { timeout: callTimeout });
      const content = (result.content ?? []) as { type: string; text?: string }[];
      const text = content.map((c) => c.text ?? '').join('\n');
      if (result.isError) throw new Error(`${name}: ${text.slice(0, 300)}`);
      return { text, structured: result.structuredContent as Record<string, unknown> | undefined };
    },
    async listTools() {
      return (await client.listTools(undefined, { timeout: timeoutMs })).tools.map((t) => t.name);
    },
    rss: () => Math.max(0, ...processTree(serverPid).map(vmRss)),
    stderr: () => err,
    strayOutput: () => stray,
    kill() {
      killGroup(serverPid);
      live.delete(serverPid);
    },
    async close() {
      await withTimeout(client.close(), 5_000, 'close').catch(() => undefined);
      killGroup(serverPid);
      live.delete(serverPid);
    },
  };
}

/** Rejects with `label timed out` when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** `root` and all its descendants, from /proc (Linux). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of safeReaddir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = safeRead(`/proc/${entry}/stat`);
    // Fields after the command name (which may hold spaces and parentheses): state, ppid, …
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isFinite(ppid)) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** VmRSS of `pid` in bytes (0 when the process is gone). */
export function vmRss(pid: number): number {
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(safeRead(`/proc/${pid}/status`));
  return match ? Number(match[1]) * 1024 : 0;
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
