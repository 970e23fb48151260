// The Board's and the plan graph's read models (what the editor's panels wait for before their
// first paint) at 200 / 2,000 / 10,000 tasks, and the plan graph's dagre layout at 50 / 300 tasks.
// The paint itself and the live update are measured in the real workbench: test/e2e/board.e2e.ts.
// Target: board() p50 < 250 ms at 2,000 tasks.
// Usage: node --import tsx bench/board.bench.ts [--sizes 200,2000,10000] [--runs N]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServices } from '../src/app/services';
import { layoutGraph, layoutInput } from '../src/core/board/planGraphLayout';
import type { PlanTaskRow } from '../src/core/board/planGraphLayout';
import { addManyTasks, seedBoard } from '../test/e2e/agentLedger/boardSeed';
import { measure, ms, percentile, printTable, verdict } from './lib/report';

const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const sizes = (process.argv.includes('--sizes') ? arg('--sizes') : '200,2000,10000').split(',').map(Number);
const runs = Number(process.argv.includes('--runs') ? arg('--runs') : 15);

async function main(): Promise<void> {
  const rows: (string | number)[][] = [];
  for (const size of sizes) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-board-bench-'));
    const services = await createServices({ workspace: dir });
    try {
      await seedBoard(services.engine);
      await addManyTasks(services.engine, size - 6);
      const board = await measure(runs, () => services.board.board());
      const bytes = JSON.stringify(await services.board.board()).length;
      const p50 = percentile(board, 50);
      rows.push([
        size,
        ms(p50),
        ms(percentile(board, 95)),
        `${(bytes / 1024).toFixed(0)} KiB`,
        size === 2000 ? verdict(p50 < 250) : '',
      ]);
    } finally {
      services.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  printTable(
    `board() read model, ${runs} runs (embedded store)`,
    ['tasks', 'p50 ms', 'p95 ms', 'model', '< 250 ms'],
    rows,
  );

  const layoutRows: (string | number)[][] = [];
  for (const n of [50, 300]) {
    const tasks: PlanTaskRow[] = Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      title: `T${i + 1}`,
      status: 'open',
      result: null,
      agent: null,
      progress: null,
      why: null,
    }));
    const deps = new Map(tasks.slice(1).map((t) => [t.id, [Math.max(1, Math.floor(t.id / 2)), Math.max(1, t.id - 1)]]));
    const input = layoutInput(tasks, deps);
    const times = await measure(5, () => layoutGraph(input));
    layoutRows.push([n, input.edges.length, ms(percentile(times, 50))]);
  }
  printTable('plan graph layout (dagre)', ['tasks', 'edges', 'p50 ms'], layoutRows);
}

void main();
