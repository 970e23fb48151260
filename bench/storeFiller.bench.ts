// One client filling the store as fast as it can, as the outside probe of issue 23 did (646 MiB in
// two minutes with bb_set, kg_insert and plan-graph versions; another process's task_get went to
// p99 0.8–5 s and a fresh server took 21 s to answer its first call), through real MCP servers
// (the SDK client over stdio). For each build — the one before the bounds (the baseline, built in
// this run from --baseline, default the commit before core/limits/writeQuota.ts) and this one:
// - a filler client: bb_set of 60,000-character values, kg_insert of 40 triples of ~1,500
//   characters, graph_batch_mutate of 200 nodes, round-robin, for --seconds;
// - an observer client (another server process) calling task_get on a task the whole time;
// - then the store's size on disk and a fresh server's time from spawn to its first task_get answer.
// Usage: npm run bench -- --only storeFiller  (or node --import tsx bench/storeFiller.bench.ts [--seconds 120] [--baseline REF])
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { connect } from '../test/helpers/mcpClient';
import type { LedgerClient } from '../test/helpers/mcpClient';
import { tempRepo } from '../test/helpers/tmp';
import { bytes, ms, percentile, printTable } from './lib/report';
import { buildBaseline, commitBefore } from './lib/baselineBuild';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const seconds = Number(arg('--seconds', '120'));

function baselineRef(): string {
  if (process.argv.includes('--baseline')) return arg('--baseline', 'HEAD');
  try {
    return commitBefore('src/core/limits/writeQuota.ts');
  } catch {
    return 'HEAD'; // not committed yet: HEAD is the code before it
  }
}

interface Outcome {
  accepted: number;
  refused: number;
  reasons: Set<string>;
  taskGet: number[];
  storeBytes: number;
  /** The image plus the journal: what every process of the ledger loads and holds in memory. */
  loadedBytes: number;
  firstCallMs: number;
}

async function call(c: LedgerClient, name: string, args: Record<string, unknown>): Promise<string | null> {
  const r = await c.client.callTool({ name, arguments: args });
  if (!r.isError) return null;
  const { error } = JSON.parse((r.content as Array<{ text: string }>).at(-1)!.text) as {
    error: { reason: string; data?: { limit?: string; reason?: string } };
  };
  return error.data?.limit ?? error.data?.reason ?? error.reason;
}

/** The store's files on disk (image, journal and the previous pair a checkpoint keeps), each file once (hard links share). */
function storeBytes(repo: string): number {
  const dir = path.join(repo, '.agent-ledger');
  const files = new Map<number, number>();
  for (const name of fs.readdirSync(dir).filter((n) => n.startsWith('ledger.'))) {
    const stat = fs.statSync(path.join(dir, name));
    files.set(stat.ino, stat.size);
  }
  return [...files.values()].reduce((n, size) => n + size, 0);
}

async function run(cli: string | undefined): Promise<Outcome> {
  const repo = tempRepo();
  const observer = await connect(repo, ['--enable-orchestrator'], { cli });
  const filler = await connect(repo, ['--enable-orchestrator'], { cli });
  const outcome: Outcome = {
    accepted: 0,
    refused: 0,
    reasons: new Set(),
    taskGet: [],
    storeBytes: 0,
    loadedBytes: 0,
    firstCallMs: 0,
  };
  try {
    let taskId = 0;
    for (let i = 0; i < 200; i++)
      taskId = (await observer.call<{ id: number }>('task_create', { title: `task ${i}`, description: 'observed' })).id;
    let stop = false;
    const watching = (async () => {
      while (!stop) {
        const start = performance.now();
        await observer.call('task_get', { id: taskId });
        outcome.taskGet.push(performance.now() - start);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const end = performance.now() + seconds * 1000;
    for (let n = 0; performance.now() < end; n++) {
      const salt = randomBytes(8).toString('hex');
      const which = n % 3;
      const refusal =
        which === 0
          ? await call(filler, 'bb_set', { key: `fill${n % 50}:${n}`, value: randomBytes(30_000).toString('hex') })
          : which === 1
            ? await call(filler, 'kg_insert', {
                triples: Array.from({ length: 40 }, (_, i) => ({
                  subject: `s${n}-${i}-${salt}`,
                  predicate: 'fills',
                  object: randomBytes(750).toString('hex'),
                })),
              })
            : await call(filler, 'graph_batch_mutate', {
                graph_id: `fill-${n % 7}`,
                operations: Array.from({ length: 200 }, (_, i) => ({
                  op: 'add_node',
                  node: { id: `n${n}-${i}`, label: `${salt} ${'l'.repeat(200)}` },
                })),
              });
      if (refusal === null) outcome.accepted++;
      else {
        outcome.refused++;
        outcome.reasons.add(refusal);
      }
    }
    stop = true;
    await watching;
  } finally {
    await filler.close();
    await observer.close();
  }
  outcome.storeBytes = storeBytes(repo);
  outcome.loadedBytes = ['ledger.db', 'ledger.journal']
    .map((name) => path.join(repo, '.agent-ledger', name))
    .filter((file) => fs.existsSync(file))
    .reduce((n, file) => n + fs.statSync(file).size, 0);
  const start = performance.now();
  const fresh = await connect(repo, ['--enable-orchestrator'], { cli });
  try {
    await fresh.call('task_get', { id: 1 });
    outcome.firstCallMs = performance.now() - start;
  } finally {
    await fresh.close();
  }
  return outcome;
}

async function main(): Promise<void> {
  const baseline = buildBaseline(baselineRef());
  try {
    const rows: string[][] = [];
    for (const [label, cli] of [
      [`before (${baseline.commit.slice(0, 7)})`, baseline.cli],
      ['this build, default limits', undefined],
    ] as const) {
      const o = await run(cli);
      rows.push([
        label,
        String(o.accepted),
        `${o.refused}${o.reasons.size ? ` (${[...o.reasons].join(', ')})` : ''}`,
        bytes(o.storeBytes),
        bytes(o.loadedBytes),
        ms(percentile(o.taskGet, 50)),
        ms(percentile(o.taskGet, 99)),
        ms(Math.max(...o.taskGet)),
        ms(o.firstCallMs),
      ]);
    }
    printTable(
      `one client filling the store for ${seconds} s (embedded store), another calling task_get`,
      [
        'build',
        'filler calls written',
        'refused',
        'store on disk',
        'image + journal',
        'task_get p50 ms',
        'p99 ms',
        'max ms',
        'fresh server: spawn → first task_get ms',
      ],
      rows,
    );
  } finally {
    baseline.dispose();
  }
}

void main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
