// Each Node/V8 flag of the server's launch (src/app/serverNodeFlags.ts) with its figure
// (issue 14, memory at rest): sets of flags compared in one run, spawns interleaved (the first set
// rotating), on the same store. Per set: RSS 1 s after the first acknowledged write, restarted
// server → first acknowledged write, and p50 of task_get / task_list / task_update over a bare
// stdio client (so a flag that slows SQLite or the JavaScript shows here).
// Usage: node --import tsx bench/serverFlags.bench.ts [--tasks 1000] [--spawns 5] [--calls 40]
//        [--set "name=--flag --flag"]... (default: the sets below; the first is the baseline)
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { cpus, loadavg } from 'node:os';
import * as path from 'node:path';
import { EmbeddedEngine } from '../src/store/embedded/embeddedEngine';
import { serverNodeFlags } from '../src/app/serverNodeFlags';
import { tempDir } from '../test/helpers/tmp';
import { ms, percentile, printTable, ratio } from './lib/report';
import { rawSession } from './lib/rawMcp';
import type { RawSession } from './lib/rawMcp';
import { seedTasks } from './lib/replicaLoad';
import { vmRss } from './peers/session';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const tasks = Number(arg('--tasks', '1000'));
const spawns = Number(arg('--spawns', '5'));
const calls = Number(arg('--calls', '40'));
const cli = path.resolve(__dirname, '..', 'dist', 'cli.js');
const MiB = 1024 * 1024;
const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

const given = process.argv.flatMap((a, i) => (a === '--set' ? [process.argv[i + 1]] : []));
const sets: { name: string; flags: string[] }[] = given.length
  ? given.map((s) => ({
      name: s.split('=')[0],
      flags: s
        .slice(s.indexOf('=') + 1)
        .split(' ')
        .filter(Boolean),
    }))
  : [
      { name: 'semi-space only (session 6)', flags: ['--max-semi-space-size=1'] },
      { name: `now: ${serverNodeFlags.join(' ')}`, flags: [...serverNodeFlags] },
    ];

async function call(s: RawSession, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await s.request('tools/call', { name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content).slice(0, 300)}`);
  return result;
}

interface Sample {
  rss: number;
  firstWrite: number;
  get: number[];
  list: number[];
  update: number[];
}

async function trial(flags: string[], workspace: string): Promise<Sample> {
  const started = performance.now();
  const s = rawSession(process.execPath, [...flags, cli, 'mcp', 'serve', '--workspace', workspace], workspace);
  try {
    await s.initialize();
    await s.request('tools/list', {});
    const created = (
      await call(s, 'task_create', { title: 'written by the flags benchmark', description: 'first write' })
    ).structuredContent as { id: number };
    const firstWrite = performance.now() - started;
    await sleep(1000);
    const rss = vmRss(s.pid);
    const sample: Sample = { rss, firstWrite, get: [], list: [], update: [] };
    // One tool at a time, so no call waits behind what the write before it left to do.
    const timed = async (into: number[], fn: (i: number) => Promise<unknown>) => {
      for (let i = 0; i < calls; i++) {
        const t = performance.now();
        await fn(i);
        into.push(performance.now() - t);
      }
    };
    await timed(sample.get, (i) => call(s, 'task_get', { id: 1 + ((i * 37) % tasks) }));
    await timed(sample.list, (i) => call(s, 'task_list', { limit: 50, offset: (i * 50) % tasks }));
    await timed(sample.update, (i) => call(s, 'task_update', { id: created.id, description: `update ${i}` }));
    return sample;
  } finally {
    await s.close();
  }
}

async function main(): Promise<void> {
  const load = loadavg()[0];
  const workspace = tempDir('agent-ledger-flags-');
  execFileSync('git', ['init', '-q', workspace]);
  const engine = await EmbeddedEngine.open({ dbPath: path.join(workspace, '.agent-ledger', 'ledger.db') });
  await seedTasks(engine, tasks);
  await engine.checkpoint();
  await engine.close();
  const samples = new Map(sets.map((s) => [s, [] as Sample[]]));
  for (let t = 0; t < spawns; t++) {
    const order = [...sets.slice(t % sets.length), ...sets.slice(0, t % sets.length)];
    for (const set of order) samples.get(set)!.push(await trial(set.flags, workspace));
  }
  const med = (xs: number[]) => percentile(xs, 50);
  const of = (set: (typeof sets)[number]) => {
    const ss = samples.get(set)!;
    return {
      rss: med(ss.map((x) => x.rss)),
      first: med(ss.map((x) => x.firstWrite)),
      get: med(ss.flatMap((x) => x.get)),
      list: med(ss.flatMap((x) => x.list)),
      update: med(ss.flatMap((x) => x.update)),
    };
  };
  const base = of(sets[0]);
  const rows = sets.map((set) => {
    const m = of(set);
    return [
      set.name,
      `${(m.rss / MiB).toFixed(1)} (${ratio(m.rss, base.rss)})`,
      `${ms(m.first)} (${ratio(m.first, base.first)})`,
      `${ms(m.get)} (${ratio(m.get, base.get)})`,
      `${ms(m.list)} (${ratio(m.list, base.list)})`,
      `${ms(m.update)} (${ratio(m.update, base.update)})`,
    ];
  });
  printTable(
    `Server launch flags at ${tasks} tasks: medians of ${spawns} spawns each, interleaved, ${calls} calls of each tool per spawn (load average ${load.toFixed(1)} on ${cpus().length} cores${load > 4 ? ': under load' : ''})`,
    [
      'flags',
      'RSS idle after the first write (MiB)',
      'first write after restart (ms)',
      'task_get p50 (ms)',
      'task_list 50 p50 (ms)',
      'task_update p50 (ms)',
    ],
    rows,
  );
  for (const set of sets) console.log(`- ${set.name}: node ${set.flags.join(' ')}`);
  fs.rmSync(workspace, { recursive: true, force: true });
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
