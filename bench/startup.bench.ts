// Start-up and memory of the MCP server (issue 14), against a baseline measured in the same run:
// the smallest server one writes on the same MCP SDK (bench/lib/minimalServer.mjs, one tool).
//   spawn → tools listed    a bare JSON-RPC client (the server's own time), and the SDK client,
//                           which also compiles a validator for each output schema it is listed
//   restarted server → first acknowledged write: spawn, initialize, tools/list, task_create
//   first call              what the first tool call pays after the list (the ledger opening), with each
//                           client: at once after the bare list, after its compilation with the SDK client
//   RSS                     idle after the first write, and after a full task_list paging, at
//                           each store size
// Medians of N spawns, the servers interleaved (the first one rotating), so the machine's load
// falls on all of them alike. The stores are seeded through the engine before any timing.
// Usage: npm run bench -- --only startup   (node --import tsx bench/startup.bench.ts [--spawns 5] [--sizes 1000,50000]
//        [--cli <other dist/cli.js>] [--no-node-flags])
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { cpus, loadavg } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EmbeddedEngine } from '../src/store/embedded/embeddedEngine';
import { tempDir } from '../test/helpers/tmp';
import { ms, percentile, printTable, ratio, verdict } from './lib/report';
import { rawSession } from './lib/rawMcp';
import type { RawSession } from './lib/rawMcp';
import { seedTasks } from './lib/replicaLoad';
import { vmRss } from './peers/session';
import { serverNodeFlags } from '../src/app/serverNodeFlags';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const spawns = Number(arg('--spawns', '5'));
const sizes = arg('--sizes', '1000,50000').split(',').map(Number);
// --cli: another build of the server (a before/after comparison runs the bench on each).
const cli = path.resolve(arg('--cli', path.resolve(__dirname, '..', 'dist', 'cli.js')));
const minimal = path.resolve(__dirname, 'lib', 'minimalServer.mjs');
// Our server runs with the Node flags every launch configuration we write carries; --no-node-flags
// starts it as a bare `node cli.js` (how builds before those flags were launched).
const nodeFlags = process.argv.includes('--no-node-flags') ? [] : [...serverNodeFlags];
const MiB = 1024 * 1024;

interface Server {
  name: string;
  args: (workspace: string) => string[];
  /** A call that writes (ours) or the one tool there is (the baseline). */
  firstCall: { name: string; arguments: Record<string, unknown> };
}

const baseline: Server = {
  name: 'minimal one-tool server',
  args: () => [minimal],
  firstCall: { name: 'echo', arguments: { text: 'hello' } },
};
const ours: Server = {
  name: 'Agent Ledger',
  args: (workspace) => [...nodeFlags, cli, 'mcp', 'serve', '--workspace', workspace],
  firstCall: {
    name: 'task_create',
    arguments: { title: 'written by the start-up benchmark', description: 'The first write of a restarted server.' },
  },
};

interface Trial {
  listedMs: number;
  firstCallMs: number;
  rssIdle: number;
}

const median = (xs: number[]): number => percentile(xs, 50);
const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

/** A workspace (a Git repository) whose ledger holds `tasks` tasks, seeded through the engine. */
async function workspaceWith(tasks: number): Promise<string> {
  const workspace = tempDir('agent-ledger-startup-');
  execFileSync('git', ['init', '-q', workspace]);
  const engine = await EmbeddedEngine.open({ dbPath: path.join(workspace, '.agent-ledger', 'ledger.db') });
  await seedTasks(engine, tasks);
  await engine.checkpoint();
  await engine.close();
  return workspace;
}

/** Spawn → initialize → tools/list → the first call, with a bare client; RSS 1 s after the call. */
async function rawTrial(server: Server, workspace: string): Promise<Trial> {
  const started = performance.now();
  const s = rawSession(process.execPath, server.args(workspace), workspace);
  try {
    await s.initialize();
    await s.request('tools/list', {});
    const listedMs = performance.now() - started;
    await call(s, server.firstCall);
    const firstCallMs = performance.now() - started;
    await sleep(1000);
    return { listedMs, firstCallMs, rssIdle: vmRss(s.pid) };
  } finally {
    await s.close();
  }
}

async function call(s: RawSession, what: Server['firstCall']): Promise<Record<string, unknown>> {
  const result = await s.request('tools/call', what);
  if (result.isError) throw new Error(`${what.name}: ${JSON.stringify(result.content).slice(0, 300)}`);
  return result;
}

/**
 * Spawn → tools listed with the SDK client (which compiles a validator per output schema), then
 * its first call at once (which the client validates against the listed output schema).
 */
async function sdkTrial(server: Server, workspace: string): Promise<{ listedMs: number; firstCallMs: number }> {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: server.args(workspace),
    cwd: workspace,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'agent-ledger-startup-bench', version: '1.0.0' });
  try {
    await client.connect(transport);
    await client.listTools();
    const listed = performance.now();
    const result = await client.callTool(server.firstCall);
    if (result.isError) throw new Error(`${server.firstCall.name}: ${JSON.stringify(result.content).slice(0, 300)}`);
    return { listedMs: listed - started, firstCallMs: performance.now() - listed };
  } finally {
    await client.close();
  }
}

/** RSS of our server at rest after the first write, and after paging through every task. */
async function memoryAt(workspace: string): Promise<{ idle: number; paged: number; pagedIdle: number }> {
  const s = rawSession(process.execPath, ours.args(workspace), workspace);
  try {
    await s.initialize();
    await s.request('tools/list', {});
    await call(s, ours.firstCall);
    await sleep(1000);
    const idle = vmRss(s.pid);
    let offset: number | null = 0;
    while (offset !== null) {
      const page = (await call(s, { name: 'task_list', arguments: { limit: 500, offset } })).structuredContent as {
        nextOffset: number | null;
      };
      offset = page.nextOffset;
    }
    const paged = vmRss(s.pid);
    await sleep(2000);
    return { idle, paged, pagedIdle: vmRss(s.pid) };
  } finally {
    await s.close();
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run npm run build (npm run bench builds first)`);
  const load = loadavg()[0];
  const workspaces = new Map<number, string>();
  for (const size of sizes) workspaces.set(size, await workspaceWith(size));
  const small = workspaces.get(sizes[0])!;

  const raw = new Map<Server, Trial[]>([
    [baseline, []],
    [ours, []],
  ]);
  const sdk = new Map<Server, { listedMs: number; firstCallMs: number }[]>([
    [baseline, []],
    [ours, []],
  ]);
  for (let t = 0; t < spawns; t++) {
    const order = t % 2 === 0 ? [baseline, ours] : [ours, baseline];
    for (const server of order) raw.get(server)!.push(await rawTrial(server, small));
    for (const server of order) sdk.get(server)!.push(await sdkTrial(server, small));
  }
  const m = (server: Server, pick: (t: Trial) => number) => median(raw.get(server)!.map(pick));
  const listedBase = m(baseline, (t) => t.listedMs);
  const listedOurs = m(ours, (t) => t.listedMs);
  const sdkBase = median(sdk.get(baseline)!.map((t) => t.listedMs));
  const sdkOurs = median(sdk.get(ours)!.map((t) => t.listedMs));
  const sdkFirstBase = median(sdk.get(baseline)!.map((t) => t.firstCallMs));
  const sdkFirstOurs = median(sdk.get(ours)!.map((t) => t.firstCallMs));
  const firstBase = m(baseline, (t) => t.firstCallMs);
  const firstOurs = m(ours, (t) => t.firstCallMs);
  const rssBase = m(baseline, (t) => t.rssIdle);
  const rssOurs = m(ours, (t) => t.rssIdle);
  const rows: (string | number)[][] = [
    [
      'spawn → tools listed (bare client)',
      ms(listedBase),
      ms(listedOurs),
      ratio(listedOurs, listedBase),
      '≤ 1.5×',
      verdict(listedOurs <= 1.5 * listedBase),
    ],
    [
      'spawn → tools listed (SDK client, compiles output schemas)',
      ms(sdkBase),
      ms(sdkOurs),
      ratio(sdkOurs, sdkBase),
      '≤ 1.5×',
      verdict(sdkOurs <= 1.5 * sdkBase),
    ],
    [
      'restarted server → first acknowledged write (ms)',
      ms(firstBase),
      ms(firstOurs),
      ratio(firstOurs, firstBase),
      '≤ 500 ms',
      verdict(firstOurs <= 500),
    ],
    [
      'first call after the list (ms)',
      ms(firstBase - listedBase),
      ms(firstOurs - listedOurs),
      ratio(firstOurs - listedOurs, firstBase - listedBase),
      '-',
      '-',
    ],
    [
      'first call after the list, SDK client (ms)',
      ms(sdkFirstBase),
      ms(sdkFirstOurs),
      ratio(sdkFirstOurs, sdkFirstBase),
      '-',
      '-',
    ],
    [
      `RSS idle after the first write, ${sizes[0]} tasks (MiB)`,
      (rssBase / MiB).toFixed(1),
      (rssOurs / MiB).toFixed(1),
      ratio(rssOurs, rssBase),
      '≤ 75 MiB',
      verdict(rssOurs <= 75 * MiB),
    ],
  ];
  for (const size of sizes) {
    const mem = await memoryAt(workspaces.get(size)!);
    rows.push([
      `RSS at ${size} tasks: idle / after paging every task / 2 s later (MiB)`,
      '-',
      `${(mem.idle / MiB).toFixed(1)} / ${(mem.paged / MiB).toFixed(1)} / ${(mem.pagedIdle / MiB).toFixed(1)}`,
      '-',
      '≤ 150 MiB',
      verdict(Math.max(mem.idle, mem.paged) <= 150 * MiB),
    ]);
  }
  printTable(
    `MCP server start-up and memory: median of ${spawns} spawns each, interleaved (load average ${load.toFixed(1)} on ${cpus().length} cores${load > 4 ? ': under load' : ''}; ours: node ${nodeFlags.join(' ')} ${path.relative(process.cwd(), cli)})`,
    ['figure', 'minimal server', 'Agent Ledger', 'ratio', 'target', 'verdict'],
    rows,
  );
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
