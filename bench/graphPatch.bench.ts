// graph_patch on plan graphs of 1,000 nodes (and 100 / 5,000 for the trend): keyed diff,
// patch application with invariants (what graph_patch decides before a commit), and the
// size of the patch against an index-addressed diff of the same edit.
// Target: graph_patch (apply + invariants) p50 < 20 ms at 1,000 nodes.
// Usage: node --import tsx bench/graphPatch.bench.ts [--sizes 100,1000,5000] [--runs N]
import { compare } from 'fast-json-patch';
import { diffGraphs } from '../src/core/coordination/plans/graphDiff';
import { checkGraph } from '../src/core/coordination/plans/graphInvariants';
import { planGraphPatch } from '../src/core/coordination/plans/graphPatch';
import { randomDag, randomEdit } from '../test/unit/core/coordination/plans/graphFixtures';
import { seeded } from '../test/unit/core/coordination/plans/random';
import { measure, ms, percentile, printTable, verdict } from './lib/report';

const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const sizes = (process.argv.includes('--sizes') ? arg('--sizes') : '100,1000,5000').split(',').map(Number);
const runs = Number(process.argv.includes('--runs') ? arg('--runs') : 100);

async function main(): Promise<void> {
  const rows: (string | number)[][] = [];
  for (const size of sizes) {
    const r = seeded(size);
    const base = randomDag(r, size, 2);
    const targets = Array.from({ length: 20 }, () => randomEdit(r, base, 20));
    const patches = targets.map((t) => diffGraphs(base, t).operations);
    const diff = await measure(runs, (i) => diffGraphs(base, targets[Math.abs(i) % targets.length]));
    const patch = await measure(runs, (i) =>
      planGraphPatch(base, { patch: patches[Math.abs(i) % patches.length], base_version: base.graph_version }),
    );
    const check = await measure(runs, () => checkGraph(base));
    const keyedOps = patches.reduce((s, p) => s + p.length, 0) / patches.length;
    const indexOps = targets.reduce((s, t) => s + compare(base, t).length, 0) / targets.length;
    const p50 = percentile(patch, 50);
    rows.push([
      size,
      base.edges.length,
      ms(percentile(diff, 50)),
      ms(p50),
      ms(percentile(patch, 95)),
      ms(percentile(check, 50)),
      keyedOps.toFixed(0),
      indexOps.toFixed(0),
      size === 1000 ? verdict(p50 < 20) : '',
    ]);
  }
  printTable(
    `graph_diff / graph_patch on plan graphs (20 random edits each, ${runs} runs)`,
    [
      'nodes',
      'edges',
      'diff p50 ms',
      'patch+invariants p50 ms',
      'patch p95 ms',
      'invariants p50 ms',
      'ops (by id)',
      'ops (by index)',
      '< 20 ms',
    ],
    rows,
  );
}

void main();
