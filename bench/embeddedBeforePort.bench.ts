// The embedded store now against the embedded store before the store port (issue 13: "no slower
// than before, ±10 %"). The port put every service behind the asynchronous `LedgerEngine`
// (merge a8dc11f); its first parent, de29838, is the last code with the synchronous store. This
// bench builds that commit in a temporary git worktree (node_modules linked, `node esbuild.mjs`),
// starts both `dist/cli.js` as MCP servers over stdio (the real SDK client), each on its own temp
// repository with the same tasks, and measures the main tool calls turn about, in slices, so the
// machine's load hits both alike. The baseline is measured in the same run.
// Usage: npm run build && node --import tsx bench/embeddedBeforePort.bench.ts [--runs N] [--tasks N]
//        [--commit <rev>]  (default de29838) | [--baseline <path to an old dist/cli.js>] [--only <regex of rows>]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tempRepo } from '../test/helpers/tmp';
import { cliPath } from '../test/helpers/mcpClient';
import { measure, ms, percentile, printTable, verdict } from './lib/report';

const arg = (name: string, fallback: string | undefined) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const runs = Number(arg('--runs', '200'));
const tasks = Number(arg('--tasks', '500'));
const commit = arg('--commit', 'de29838')!;
const only = arg('--only', undefined);
const root = path.resolve(__dirname, '..');

/** Builds `rev` in a temporary worktree; returns its cli.js and how to remove the worktree. */
function buildBaseline(rev: string): { cli: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-baseline-'));
  execFileSync('git', ['-C', root, 'worktree', 'add', '--detach', dir, rev], { stdio: 'ignore' });
  const remove = (): void => {
    execFileSync('git', ['-C', root, 'worktree', 'remove', '--force', dir], { stdio: 'ignore' });
  };
  try {
    fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(dir, 'node_modules'));
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: dir, stdio: 'ignore' });
  } catch (err) {
    remove();
    throw err;
  }
  return { cli: path.join(dir, 'dist', 'cli.js'), remove };
}

interface Side {
  name: string;
  client: Client;
  call<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<T>;
  workflowId: string;
  taskIds: number[];
  started: string[];
  completed: number;
}

async function side(name: string, cli: string): Promise<Side> {
  const repo = tempRepo({ 'src/a.ts': 'a\n' });
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k, v]) => v !== undefined && !k.startsWith('AGENT_LEDGER_DB')),
  ) as Record<string, string>;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', 'serve', '--workspace', repo],
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'agent-ledger-bench', version: '1.0.0' });
  await client.connect(transport);
  const call = async <T>(tool: string, args: Record<string, unknown>): Promise<T> => {
    const result = await client.callTool({ name: tool, arguments: args });
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    if (result.isError) throw new Error(`${name}: ${tool} failed: ${text}`);
    return JSON.parse(text) as T;
  };
  const { workflow_id } = await call<{ workflow_id: string }>('start_workflow', { name: 'bench' });
  const taskIds: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < tasks; i++) taskIds.push((await call<{ id: number }>('task_create', { title: `task ${i}` })).id);
  console.error(`${name}: ${tasks} tasks made in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { name, client, call, workflowId: workflow_id, taskIds, started: [], completed: 0 };
}

type Call = (s: Side, i: number) => Promise<unknown>;
const pick = (s: Side): number => s.taskIds[Math.floor(Math.random() * s.taskIds.length)];

const calls: [string, Call][] = [
  ['SDK ping (stdio round trip)', (s) => s.client.ping()],
  [
    'task_create',
    async (s, i) => s.taskIds.push((await s.call<{ id: number }>('task_create', { title: `bench ${i}` })).id),
  ],
  ['task_get', (s) => s.call('task_get', { id: pick(s) })],
  ['task_list (50)', (s) => s.call('task_list', { limit: 50 })],
  ['task_update', (s, i) => s.call('task_update', { id: pick(s), description: `edit ${i}` })],
  [
    'start_task (Git snapshot)',
    async (s) =>
      s.started.push(
        (
          await s.call<{ task_id: string }>('start_task', {
            workflow_id: s.workflowId,
            name: 't',
            goal: 'g',
            areas: ['src'],
          })
        ).task_id,
      ),
  ],
  ['log_milestone', (s, i) => s.call('log_milestone', { task_id: s.started[0], message: `m${i}`, progress: 50 })],
  // Each started task but the first (which takes the milestones) is completed once.
  [
    'complete_task (Git diff)',
    (s) =>
      s.call('complete_task', {
        task_id: s.started[1 + s.completed++],
        status: 'success',
        outcome: { summary: 'done' },
      }),
  ],
];

async function main(): Promise<void> {
  const given = arg('--baseline', undefined);
  const baseline = given ? { cli: path.resolve(given), remove: () => undefined } : buildBaseline(commit);
  try {
    const before = await side(`before the port (${given ?? commit})`, baseline.cli);
    const now = await side('now', cliPath);
    const rows: string[][] = [];
    for (const [label, call] of calls) {
      // --only <regex>: those rows (and the ping); start_task still runs when complete_task is asked, for its started tasks.
      if (
        only &&
        !label.startsWith('SDK') &&
        !new RegExp(only).test(label) &&
        !(label.startsWith('start_task') && /complete|milestone/.test(only))
      )
        continue;
      const samples = new Map<Side, number[]>([
        [before, []],
        [now, []],
      ]);
      const slice = Math.max(5, Math.floor(runs / 10));
      // complete_task needs a started task per call: at most as many as start_task made.
      const total = label.startsWith('complete_task')
        ? Math.min(runs, before.started.length - 1, now.started.length - 1)
        : runs;
      for (let done = 0, turn = 0; done < total; done += slice, turn++) {
        // Turn about, the order flipped each slice: neither side always runs first.
        for (const s of turn % 2 === 0 ? [before, now] : [now, before])
          samples.get(s)!.push(...(await measure(Math.min(slice, total - done), (i) => call(s, done + i), 0)));
      }
      const b = samples.get(before)!;
      const n = samples.get(now)!;
      const ratio = percentile(n, 50) / percentile(b, 50);
      rows.push([
        label,
        String(n.length),
        ms(percentile(b, 50)),
        ms(percentile(n, 50)),
        `${ratio.toFixed(2)}×`,
        ms(percentile(b, 99)),
        ms(percentile(n, 99)),
        label.startsWith('SDK') ? '-' : verdict(ratio <= 1.1),
      ]);
    }
    await before.client.close();
    await now.client.close();
    printTable(
      `Embedded store before the port (${given ?? commit}) and now, ${runs} calls each over stdio at ${tasks}+ tasks (ms; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
      ['call', 'calls', 'before p50', 'now p50', 'now / before (p50)', 'before p99', 'now p99', '≤ 1.10×'],
      rows,
    );
  } finally {
    baseline.remove();
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
