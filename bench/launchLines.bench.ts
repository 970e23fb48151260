// The MCP server's memory at rest as each documented launch starts it (issue 23): what a client
// configuration written from the README runs, against the editor's own configurations, on the same
// store, spawns interleaved (the first launch rotating) so the machine's load falls on all alike.
//   agent-ledger (no flags)        `agent-ledger mcp serve …` from PATH, as a configuration without
//                                  the README's env line starts it (the baseline)
//   agent-ledger + NODE_OPTIONS    the same command with NODE_OPTIONS=<serverNodeFlags>, as the
//                                  README's `claude mcp add -e …` line and `.mcp.json` block set it
//   node <flags> dist/cli.js       the editor's registration and its Add to … commands
// `agent-ledger` is a link to dist/cli.js in a folder put first on PATH, as `npm install -g` makes
// it (its `#!/usr/bin/env node` line runs it). RSS 1 s after the first acknowledged write, and 2 s
// after paging every task (task_list, 500 a page).
// Usage: node --import tsx bench/launchLines.bench.ts [--tasks 1000] [--spawns 5]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { cpus, loadavg } from 'node:os';
import * as path from 'node:path';
import { EmbeddedEngine } from '../src/store/embedded/embeddedEngine';
import { serverNodeFlags } from '../src/app/serverNodeFlags';
import { tempDir } from '../test/helpers/tmp';
import { percentile, printTable, ratio } from './lib/report';
import { rawSession } from './lib/rawMcp';
import type { RawSession } from './lib/rawMcp';
import { seedTasks } from './lib/replicaLoad';
import { vmRss } from './peers/session';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const tasks = Number(arg('--tasks', '1000'));
const spawns = Number(arg('--spawns', '5'));
const cli = path.resolve(__dirname, '..', 'dist', 'cli.js');
const MiB = 1024 * 1024;
const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

const bin = tempDir('agent-ledger-launch-bin-');
fs.chmodSync(cli, 0o755); // as npm makes a package's bin when it installs it
fs.symlinkSync(cli, path.join(bin, 'agent-ledger'));
const onPath = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };

interface Launch {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}
const launches: Launch[] = [
  { name: 'agent-ledger (no flags)', command: 'agent-ledger', args: [], env: onPath },
  {
    name: `agent-ledger + NODE_OPTIONS=${serverNodeFlags.join(' ')}`,
    command: 'agent-ledger',
    args: [],
    env: { ...onPath, NODE_OPTIONS: serverNodeFlags.join(' ') },
  },
  {
    name: `node ${serverNodeFlags.join(' ')} dist/cli.js`,
    command: process.execPath,
    args: [...serverNodeFlags, cli],
    env: {},
  },
];

async function call(s: RawSession, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await s.request('tools/call', { name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content).slice(0, 300)}`);
  return result;
}

async function trial(launch: Launch, workspace: string): Promise<{ idle: number; paged: number }> {
  const s = rawSession(
    launch.command,
    [...launch.args, 'mcp', 'serve', '--workspace', workspace],
    workspace,
    launch.env,
  );
  try {
    await s.initialize();
    await s.request('tools/list', {});
    await call(s, 'task_create', { title: 'written by the launch benchmark' });
    await sleep(1000);
    const idle = vmRss(s.pid);
    let offset: number | null = 0;
    while (offset !== null)
      offset = ((await call(s, 'task_list', { limit: 500, offset })).structuredContent as { nextOffset: number | null })
        .nextOffset;
    await sleep(2000);
    return { idle, paged: vmRss(s.pid) };
  } finally {
    await s.close();
  }
}

async function main(): Promise<void> {
  const workspace = tempDir('agent-ledger-launch-');
  execFileSync('git', ['init', '-q', workspace]);
  const engine = await EmbeddedEngine.open({ dbPath: path.join(workspace, '.agent-ledger', 'ledger.db') });
  await seedTasks(engine, tasks);
  await engine.checkpoint();
  await engine.close();
  const samples = launches.map(() => ({ idle: [] as number[], paged: [] as number[] }));
  for (let round = 0; round < spawns; round++)
    for (let k = 0; k < launches.length; k++) {
      const i = (round + k) % launches.length;
      const t = await trial(launches[i], workspace);
      samples[i].idle.push(t.idle);
      samples[i].paged.push(t.paged);
    }
  const median = (xs: number[]) => percentile(xs, 50);
  const base = samples[0];
  printTable(
    `The server at rest as each launch starts it, ${tasks} tasks: RSS MiB, median of ${spawns} spawns (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`,
    ['launch', 'idle after the first write', 'ratio', 'after paging every task', 'ratio'],
    launches.map((l, i) => [
      l.name,
      (median(samples[i].idle) / MiB).toFixed(1),
      ratio(median(samples[i].idle), median(base.idle)),
      (median(samples[i].paged) / MiB).toFixed(1),
      ratio(median(samples[i].paged), median(base.paged)),
    ]),
  );
}

void main();
