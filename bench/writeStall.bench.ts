// The slowest write: every write of a stream at 50,000 tasks, long enough to cross the store's
// periodic checkpoint (one every 2,000 journal records), p50 / p99 / max, beside what folding the
// whole image costs at that size (a checkpoint forced in the same run: the baseline a write would
// pay if it waited for one). Targets: max ≤ 50 ms, p99 ≤ 10 ms.
// Usage: node --import tsx bench/writeStall.bench.ts [--sizes 50000] [--writes 2500]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createServices } from '../src/services';
import { storePaths } from '../src/store/storePaths';
import { tempDir } from '../test/helpers/tmp';
import { populateTasks } from './lib/populateTasks';
import { bytes, measure, ms, percentile, printTable, ratio, verdict } from './lib/report';

const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const sizes = (process.argv.includes('--sizes') ? arg('--sizes') : '50000').split(',').map(Number);
const writes = Number(process.argv.includes('--writes') ? arg('--writes') : 2500);

interface Checkpointing {
  checkpoint(): Promise<void>;
}

async function main(): Promise<void> {
  const rows: (string | number)[][] = [];
  for (const size of sizes) {
    const workspace = tempDir();
    const services = await createServices({ workspace });
    await populateTasks(services, size);
    const engine = services.engine as unknown as Checkpointing;
    const forced = await measure(3, () => engine.checkpoint(), 0);
    const paths = storePaths(services.paths.dbPath);
    const samples = await measure(writes, (i) => services.tracking.logMilestone({ task_id: 1 + Math.floor(Math.random() * size), message: `bench ${i}`, progress: 60 }));
    const checkpointMs = percentile(forced, 50);
    const max = Math.max(...samples);
    rows.push([
      size.toLocaleString('en'),
      bytes(fs.statSync(paths.image).size),
      ms(checkpointMs),
      ms(percentile(samples, 50)),
      ms(percentile(samples, 99)),
      ms(max),
      ratio(max, checkpointMs),
      verdict(max <= 50 && percentile(samples, 99) <= 10),
    ]);
    services.dispose();
    fs.rmSync(path.join(workspace, '.agent-ledger'), { recursive: true, force: true });
  }
  printTable(
    `Every write of a stream of ${writes.toLocaleString('en')} (log_milestone, crosses the periodic checkpoint), ms`,
    ['tasks', 'image', 'whole-image checkpoint (baseline)', 'write p50', 'write p99', 'slowest write', 'slowest / checkpoint', 'target max ≤ 50, p99 ≤ 10'],
    rows,
  );
}

void main();
