// What holds the resident memory of an idle `agent-ledger mcp serve` (issue 14, docs/performance.md
// "Memory"): /proc/<pid>/smaps grouped by mapping, process.memoryUsage() and V8's heap spaces, 1 s
// after the first acknowledged write and again after paging through every task with task_list.
// The server runs with the Node flags of our launch configurations (serverNodeFlags) plus a preloaded
// probe (bench/lib/memoryProbe.mjs) that answers a signal; --flags adds V8 flags to try one.
// Usage: node --import tsx bench/memoryBreakdown.bench.ts [--sizes 1000,50000] [--flags "--a --b"]
//        [--cli other/dist/cli.js] [--snapshot] (writes a heap snapshot at rest and says where)
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { EmbeddedEngine } from '../src/store/embedded/embeddedEngine';
import { serverNodeFlags } from '../src/app/serverNodeFlags';
import { tempDir } from '../test/helpers/tmp';
import { printTable } from './lib/report';
import { rawSession } from './lib/rawMcp';
import type { RawSession } from './lib/rawMcp';
import { seedTasks } from './lib/replicaLoad';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const sizes = arg('--sizes', '1000').split(',').map(Number);
const extraFlags = arg('--flags', '').split(' ').filter(Boolean);
const cli = path.resolve(arg('--cli', path.resolve(__dirname, '..', 'dist', 'cli.js')));
const probe = path.resolve(__dirname, 'lib', 'memoryProbe.mjs');
const MiB = 1024 * 1024;
const mib = (bytes: number) => (bytes / MiB).toFixed(1);
const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

/** Resident kB of each group of mappings in /proc/<pid>/smaps. */
export function smapsGroups(pid: number): Map<string, { rss: number; anon: number; size: number; count: number }> {
  const groups = new Map<string, { rss: number; anon: number; size: number; count: number }>();
  let current: { rss: number; anon: number; size: number; count: number } | undefined;
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const size = (parseInt(head[2], 16) - parseInt(head[1], 16)) / 1024;
      const perms = head[3];
      const name = head[4];
      let group: string;
      if (name.startsWith('/')) group = `file ${path.basename(name)}`;
      else if (name) group = name;
      else if (size >= 1024 * 1024) group = 'anon: WebAssembly memory reservation (≥ 1 GiB)';
      else if (perms.includes('x')) group = 'anon: executable (V8 code)';
      else group = 'anon: other (V8 heap pages, malloc arenas, WebAssembly code)';
      current = groups.get(group) ?? { rss: 0, anon: 0, size: 0, count: 0 };
      current.size += size;
      current.count++;
      groups.set(group, current);
      continue;
    }
    const field = /^(Rss|Anonymous):\s+(\d+) kB/.exec(line);
    if (field && current) {
      if (field[1] === 'Rss') current.rss += Number(field[2]);
      else current.anon += Number(field[2]);
    }
  }
  return groups;
}

interface Probe {
  usage: NodeJS.MemoryUsage;
  spaces: Record<string, { size: number; used: number }>;
}

async function probeOf(pid: number): Promise<Probe> {
  const file = path.join(tmpdir(), `agent-ledger-memprobe-${pid}.json`);
  fs.rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 100 && !fs.existsSync(file); i++) await sleep(20);
  await sleep(20);
  const probed = JSON.parse(fs.readFileSync(file, 'utf8')) as Probe;
  fs.rmSync(file, { force: true });
  return probed;
}

async function snapshotOf(pid: number): Promise<string> {
  const done = path.join(tmpdir(), `agent-ledger-memprobe-${pid}.snapdone`);
  process.kill(pid, 'SIGTTIN');
  for (let i = 0; i < 1500 && !fs.existsSync(done); i++) await sleep(20);
  fs.rmSync(done, { force: true });
  return path.join(tmpdir(), `agent-ledger-memprobe-${pid}.heapsnapshot`);
}

function rows(label: string, pid: number, probed: Probe): (string | number)[][] {
  const out: (string | number)[][] = [];
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  out.push([
    label,
    'VmRSS (RssAnon + RssFile)',
    mib(kb('VmRSS')),
    `${mib(kb('RssAnon'))} anon + ${mib(kb('RssFile'))} file`,
  ]);
  const groups = [...smapsGroups(pid)].sort((a, b) => b[1].rss - a[1].rss);
  for (const [group, g] of groups)
    if (g.rss >= 256)
      out.push([
        label,
        `smaps ${group}`,
        mib(g.rss * 1024),
        `${g.count} mapping(s), ${mib(g.size * 1024)} MiB virtual`,
      ]);
  const u = probed.usage;
  out.push([label, 'V8 heap total / used', `${mib(u.heapTotal)} / ${mib(u.heapUsed)}`, '']);
  for (const [space, s] of Object.entries(probed.spaces))
    if (s.size > 0) out.push([label, `  ${space}`, `${mib(s.size)} / ${mib(s.used)}`, '']);
  out.push([
    label,
    'external (of which arrayBuffers)',
    `${mib(u.external)} (${mib(u.arrayBuffers)})`,
    'sql.js WebAssembly memory + Buffers',
  ]);
  return out;
}

async function call(s: RawSession, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await s.request('tools/call', { name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content).slice(0, 300)}`);
  return result;
}

async function main(): Promise<void> {
  const load = loadavg()[0];
  const table: (string | number)[][] = [];
  for (const size of sizes) {
    const workspace = tempDir('agent-ledger-memory-');
    execFileSync('git', ['init', '-q', workspace]);
    const engine = await EmbeddedEngine.open({ dbPath: path.join(workspace, '.agent-ledger', 'ledger.db') });
    await seedTasks(engine, size);
    await engine.checkpoint();
    await engine.close();
    const image = fs.statSync(path.join(workspace, '.agent-ledger', 'ledger.db')).size;
    const s = rawSession(
      process.execPath,
      [...serverNodeFlags, ...extraFlags, '--import', probe, cli, 'mcp', 'serve', '--workspace', workspace],
      workspace,
    );
    try {
      await s.initialize();
      await s.request('tools/list', {});
      await call(s, 'task_create', { title: 'written by the memory benchmark', description: 'first write' });
      await sleep(1000);
      table.push(...rows(`${size} tasks (image ${mib(image)} MiB), idle`, s.pid, await probeOf(s.pid)));
      if (process.argv.includes('--snapshot'))
        console.log(`heap snapshot at rest, ${size} tasks: ${await snapshotOf(s.pid)}`);
      let offset: number | null = 0;
      while (offset !== null)
        offset = (
          (await call(s, 'task_list', { limit: 500, offset })).structuredContent as { nextOffset: number | null }
        ).nextOffset;
      await sleep(2000);
      table.push(...rows(`${size} tasks, 2 s after paging every task`, s.pid, await probeOf(s.pid)));
    } finally {
      await s.close();
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  }
  printTable(
    `Resident memory of an idle MCP server (load average ${load.toFixed(1)} on ${cpus().length} cores; node ${[...serverNodeFlags, ...extraFlags].join(' ')} ${path.relative(process.cwd(), cli)})`,
    ['when', 'what', 'MiB', 'notes'],
    table,
  );
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
