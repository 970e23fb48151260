// Store size and write/read latency at 1,000, 10,000 and 50,000 tasks.
// Write = log_milestone through the tracking service (lock, catch-up, transaction, fsynced
// journal append); read = a task with its timeline (what task_get / task:// serve).
// Targets: write p50 < 5 ms and flat (within 2× of the 1,000-task figure); read p50 < 2 ms.
// Usage: node --import tsx bench/storeScale.bench.ts [--sizes 1000,10000,50000] [--runs N]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createServices } from '../src/app/services';
import { storePaths } from '../src/store/embedded/storePaths';
import { tempDir } from '../test/helpers/tmp';
import { populateTasks } from './lib/populateTasks';
import { bytes, measure, ms, percentile, printTable, ratio, verdict } from './lib/report';

const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const sizes = (process.argv.includes('--sizes') ? arg('--sizes') : '1000,10000,50000').split(',').map(Number);
const runs = Number(process.argv.includes('--runs') ? arg('--runs') : 300);

async function main(): Promise<void> {
  const rows: (string | number)[][] = [];
  let firstWrite = 0;
  for (const size of sizes) {
    const workspace = tempDir();
    const services = await createServices({ workspace });
    await populateTasks(services, size);
    const paths = storePaths(services.paths.dbPath);
    const write = await measure(runs, (i) =>
      services.tracking.logMilestone({
        task_id: 1 + Math.floor(Math.random() * size),
        message: `bench ${i}`,
        progress: 60,
      }),
    );
    const read = await measure(runs, () => services.queries.task(1 + Math.floor(Math.random() * size)));
    const size_ = fs.statSync(paths.image).size + fs.statSync(paths.journal).size;
    const w50 = percentile(write, 50);
    firstWrite ||= w50;
    const r50 = percentile(read, 50);
    rows.push([
      size,
      bytes(size_),
      ms(w50),
      ms(percentile(write, 95)),
      ratio(w50, firstWrite),
      verdict(w50 < 5 && w50 <= 2 * firstWrite),
      ms(r50),
      ms(percentile(read, 95)),
      verdict(r50 < 2),
    ]);
    services.dispose();
    fs.rmSync(path.join(workspace, '.agent-ledger'), { recursive: true, force: true });
  }
  printTable(
    `Store at scale (${runs} writes and reads each, ms)`,
    [
      'tasks',
      'store size',
      'write p50',
      'write p95',
      'write vs 1k',
      'write target',
      'read p50',
      'read p95',
      'read target',
    ],
    rows,
  );
}

void main();
