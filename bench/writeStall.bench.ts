// The slowest write: every write of a stream at 50,000 tasks, long enough to cross the store's
// periodic checkpoint (one every 2,000 journal records), p50 / p99 / max, beside what folding the
// whole image costs at that size (a checkpoint forced in the same run: the baseline a write would
// pay if it waited for one). Targets: max ≤ 50 ms, p99 ≤ 10 ms.
// Usage: node --import tsx bench/writeStall.bench.ts [--sizes 50000] [--writes 4500]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createServices } from '../src/services';
import { storePaths } from '../src/store/storePaths';
import { tempDir } from '../test/helpers/tmp';
import { populateTasks } from './lib/populateTasks';
import { bytes, measure, ms, percentile, printTable, ratio, verdict } from './lib/report';

const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const sizes = (process.argv.includes('--sizes') ? arg('--sizes') : '50000').split(',').map(Number);
const writes = Number(process.argv.includes('--writes') ? arg('--writes') : 4500);

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
    let image = fs.statSync(paths.image).ino;
    let checkpoints = 0;
    const samples: number[] = [];
    // At least `writes` writes, and on until a checkpoint has been installed during the stream
    // (a background one takes a few seconds to prepare on a loaded machine), for at most 2 minutes more.
    const deadline = Date.now() + 120_000;
    for (let i = 0; i < writes || (checkpoints === 0 && Date.now() < deadline); i++) {
      const started = performance.now();
      await services.tracking.logMilestone({ task_id: 1 + Math.floor(Math.random() * size), message: `bench ${i}`, progress: 60 });
      samples.push(performance.now() - started);
      const now = fs.statSync(paths.image).ino;
      if (now !== image) checkpoints++;
      image = now;
      // A server gets each call from stdin, through the event loop: so does this stream (without
      // it, back-to-back writes that never wait for I/O would starve the worker's messages).
      await new Promise((resolve) => setImmediate(resolve));
    }
    const checkpointMs = percentile(forced, 50);
    const max = Math.max(...samples);
    rows.push([
      size.toLocaleString('en'),
      bytes(fs.statSync(paths.image).size),
      ms(checkpointMs),
      ms(percentile(samples, 50)),
      ms(percentile(samples, 99)),
      ms(max),
      `${samples.length.toLocaleString('en')} / ${checkpoints}`,
      ratio(max, checkpointMs),
      verdict(max <= 50 && percentile(samples, 99) <= 10),
    ]);
    services.dispose();
    fs.rmSync(path.join(workspace, '.agent-ledger'), { recursive: true, force: true });
  }
  printTable(
    'Every write of a stream of log_milestone calls that crosses the periodic checkpoint, ms',
    ['tasks', 'image', 'whole-image checkpoint (baseline)', 'write p50', 'write p99', 'slowest write', 'writes / checkpoints during them', 'slowest / checkpoint', 'target max ≤ 50, p99 ≤ 10'],
    rows,
  );
}

void main();
