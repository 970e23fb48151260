// Wall time of `agent-ledger pipeline …` command lines, before and after flow parsing left the
// modules those commands evaluate first (src/core/pipelines/engine/flowParse.ts: YAML and the
// flow's zod schemas, built at the first parse), both measured in this run: "before" is the CLI
// built from the commit just before that change (bench/lib/baselineBuild.ts), "after" is
// dist/cli.js. Each command line runs --runs times, before and after alternating, in a
// workspace with a ledger (so `pipeline list` opens a store and runs its tool).
// Usage: npm run build && node --import tsx bench/pipelineCommand.bench.ts [--runs 20] [--base <git ref>]
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { tempRepo } from '../test/helpers/tmp';
import { buildBaseline, commitBefore } from './lib/baselineBuild';
import { ms, percentile, printTable, ratio, verdict } from './lib/report';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const runs = Number(arg('--runs', '20'));
const after = path.resolve(__dirname, '..', 'dist', 'cli.js');

function run(cli: string, args: string[], cwd: string): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' });
  const took = performance.now() - start;
  if (r.status !== 0)
    throw new Error(
      `${path.basename(path.dirname(path.dirname(cli)))} ${args.join(' ')} exited ${r.status}: ${r.stderr}`,
    );
  return took;
}

function main(): void {
  const baseRef = arg('--base', '');
  const baseline = buildBaseline(baseRef || commitBefore('src/core/pipelines/engine/flowParse.ts'));
  console.log(
    `before: built from ${baseline.commit.slice(0, 10)}; after: this checkout's dist/cli.js. Load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const repo = tempRepo();
  const lines: { name: string; args: string[] }[] = [
    { name: 'agent-ledger --version (no command)', args: ['--version'] },
    { name: 'agent-ledger pipeline --help', args: ['pipeline', '--help'] },
    { name: 'agent-ledger pipeline list', args: ['pipeline', 'list', '--json'] },
  ];
  const rows: (string | number)[][] = [];
  let verdicts = '';
  try {
    run(after, ['task', 'list', '--json'], repo); // the ledger exists before any timing
    for (const line of lines) {
      const samples: [number[], number[]] = [[], []];
      for (let i = -2; i < runs; i++) {
        // Alternating which side goes first, so neither always follows the other's disk reads.
        const order = i % 2 === 0 ? [0, 1] : [1, 0];
        for (const k of order) {
          const took = run(k === 0 ? baseline.cli : after, line.args, repo);
          if (i >= 0) samples[k].push(took);
        }
      }
      const [b, a] = samples.map((s) => percentile(s, 50));
      rows.push([line.name, ms(b), ms(a), ms(b - a), ratio(a, b)]);
      if (line.args[0] === 'pipeline')
        verdicts += `${line.name}: ${ratio(a, b)} of before (${ms(b)} → ${ms(a)} ms p50) — ${verdict(a < b)}\n`;
    }
  } finally {
    baseline.dispose();
  }
  printTable(
    `pipeline command lines, wall time of the whole process (${runs} runs each, alternating; ms)`,
    ['command line', 'before p50', 'after p50', 'saved', 'after / before'],
    rows,
  );
  process.stdout.write(verdicts);
}

main();
