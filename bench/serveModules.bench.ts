// `agent-ledger mcp serve` before and after it stopped evaluating the YAML library (agent:// loads
// it at its first read) and the events-log code (features.ts) at start, both measured in this run:
// "before" is the server built from the commit before that change (bench/lib/baselineBuild.ts),
// "after" is dist/cli.js. Spawn → initialize → tools/list with a bare JSON-RPC client (the
// server's own time), and its RSS 1 s later; the two servers alternate spawn by spawn.
// Measured under load 7–8 (20 spawns): 0.97× listed, RSS 1.01× — within noise: the bundle's YAML
// code costs little to evaluate; the gain is in what start-up no longer depends on.
// Usage: npm run build && node --import tsx bench/serveModules.bench.ts [--spawns 12] [--base <git ref>]
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { serverNodeFlags } from '../src/app/serverNodeFlags';
import { tempRepo } from '../test/helpers/tmp';
import { buildBaseline } from './lib/baselineBuild';
import { rawSession } from './lib/rawMcp';
import { vmRss } from './peers/session';
import { ms, percentile, printTable, ratio, verdict } from './lib/report';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const spawns = Number(arg('--spawns', '12'));
const root = path.resolve(__dirname, '..');
const after = path.join(root, 'dist', 'cli.js');
const MiB = 1024 * 1024;
const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

/** The parent of the commit that made agent:// load the YAML writer lazily. */
function commitBeforeChange(): string {
  const changed = execFileSync(
    'git',
    [
      'log',
      '-1',
      '--format=%H',
      "-Sawait import('../../core/agents/agentFiles.js')",
      '--',
      'src/mcp/resources/agentResource.ts',
    ],
    { cwd: root, encoding: 'utf8' },
  ).trim();
  if (!changed) throw new Error('no commit makes agent:// lazy; pass --base');
  return `${changed}^`;
}

async function trial(cli: string, workspace: string): Promise<{ listedMs: number; rss: number }> {
  const started = performance.now();
  const s = rawSession(
    process.execPath,
    [...serverNodeFlags, cli, 'mcp', 'serve', '--workspace', workspace],
    workspace,
  );
  try {
    await s.initialize();
    await s.request('tools/list', {});
    const listedMs = performance.now() - started;
    await sleep(1000);
    return { listedMs, rss: vmRss(s.pid) };
  } finally {
    await s.close();
  }
}

async function main(): Promise<void> {
  const baseline = buildBaseline(arg('--base', '') || commitBeforeChange());
  console.log(
    `before: built from ${baseline.commit.slice(0, 10)}; after: this checkout's dist/cli.js. Load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const workspace = tempRepo();
  const samples = {
    before: [] as { listedMs: number; rss: number }[],
    after: [] as { listedMs: number; rss: number }[],
  };
  try {
    for (let i = -1; i < spawns; i++) {
      const order = i % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
      for (const side of order) {
        const t = await trial(side === 'before' ? baseline.cli : after, workspace);
        if (i >= 0) samples[side].push(t);
      }
    }
  } finally {
    baseline.dispose();
  }
  const p50 = (side: 'before' | 'after', f: (t: { listedMs: number; rss: number }) => number) =>
    percentile(samples[side].map(f), 50);
  const [lb, la] = [p50('before', (t) => t.listedMs), p50('after', (t) => t.listedMs)];
  const [rb, ra] = [p50('before', (t) => t.rss), p50('after', (t) => t.rss)];
  printTable(
    `mcp serve, ${spawns} spawns each, alternating (p50)`,
    ['measure', 'before', 'after', 'after / before'],
    [
      ['spawn → tools listed (bare client), ms', ms(lb), ms(la), ratio(la, lb)],
      ['RSS 1 s after the list, MiB', (rb / MiB).toFixed(1), (ra / MiB).toFixed(1), ratio(ra, rb)],
    ],
  );
  // What the change claims is fewer modules at start (test/unit/cli/startupModules.test.ts): here it must cost nothing.
  console.log(
    `spawn → tools listed: ${ratio(la, lb)} of before; RSS ${ratio(ra, rb)} — no slower and no bigger (within 5%): ${verdict(la <= lb * 1.05 && ra <= rb * 1.05)}`,
  );
}

void main();
