// The slowest write: every write of a stream at 50,000 tasks, long enough to cross the store's
// periodic checkpoint (one every 2,000 journal records), p50 / p99 / max, beside two baselines
// measured in the same run: what folding the whole image costs at that size (a checkpoint forced in
// this thread: what a write would pay if it waited for one), and the same stream with checkpoints
// off (the floor: what the journal's own fsync costs on this disk at this moment). The floor runs
// before and after the checkpointed stream, so a change in the machine's load shows in it.
// Targets: max ≤ 50 ms, p99 ≤ 10 ms.
// `--load N` starts N CPU burners (`node -e 'for(;;){}'`, each in its own session) for the whole run: the verdict under
// load. `--trace` prints, for each write slower than 15 ms, what overlapped it (bench/lib/writeTrace.ts).
// Usage: node --import tsx bench/writeStall.bench.ts [--sizes 50000] [--writes 4500] [--load 2] [--trace]
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createServices } from '../src/app/services';
import type { Services } from '../src/app/services';
import { storePaths } from '../src/store/embedded/storePaths';
import { tempDir } from '../test/helpers/tmp';
import { populateTasks } from './lib/populateTasks';
import { bytes, measure, ms, percentile, printTable, ratio, verdict } from './lib/report';
import { WriteTrace } from './lib/writeTrace';

const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const sizes = (process.argv.includes('--sizes') ? arg('--sizes') : '50000').split(',').map(Number);
const writes = Number(process.argv.includes('--writes') ? arg('--writes') : 4500);
const burners = Number(process.argv.includes('--load') ? arg('--load') : 0);
const tracing = process.argv.includes('--trace');

interface Checkpointing {
  checkpoint(): Promise<void>;
  /** The store underneath (EmbeddedEngine.store) and its options, reached for the floor only. */
  store: { options: { checkpointRecords?: number; checkpointBytes?: number }; background?: { running: boolean } };
}

/** A stream of `log_milestone` writes; returns each write's time and how many checkpoints were installed during it. */
async function stream(
  services: Services,
  size: number,
  count: number,
  untilCheckpoint: boolean,
  trace?: WriteTrace,
): Promise<{ samples: number[]; checkpoints: number; offMainMs: number }> {
  const cpu = process.cpuUsage();
  const main = mainThreadCpuMs();
  const paths = storePaths(services.paths.dbPath);
  let image = fs.statSync(paths.image).ino;
  let checkpoints = 0;
  const samples: number[] = [];
  // At least `count` writes, and (for the checkpointed stream) on until a checkpoint has been
  // installed during the stream (a background one takes a few seconds to prepare on a loaded
  // machine), for at most 2 minutes more.
  const deadline = Date.now() + 120_000;
  for (let i = 0; i < count || (untilCheckpoint && checkpoints === 0 && Date.now() < deadline); i++) {
    trace?.begin();
    const started = performance.now();
    await services.tracking.logMilestone({
      task_id: 1 + Math.floor(Math.random() * size),
      message: `bench ${i}`,
      progress: 60,
    });
    samples.push(performance.now() - started);
    trace?.end();
    const now = fs.statSync(paths.image).ino;
    if (now !== image) checkpoints++;
    image = now;
    // A server gets each call from stdin, through the event loop: so does this stream (without
    // it, back-to-back writes that never wait for I/O would starve the worker's messages).
    await new Promise((resolve) => setImmediate(resolve));
  }
  const used = process.cpuUsage(cpu);
  return { samples, checkpoints, offMainMs: (used.user + used.system) / 1000 - (mainThreadCpuMs() - main) };
}

/** CPU time of this process's main thread (Linux; NaN elsewhere): the rest of the process's is the worker's and V8's threads'. */
function mainThreadCpuMs(): number {
  try {
    return Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

async function main(): Promise<void> {
  // Each burner in a session of its own (detached), as another user's process is: with the
  // kernel's autogroups, priorities only weigh within a session.
  const burning = Array.from({ length: burners }, () =>
    spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore', detached: true }),
  );
  try {
    await run();
  } finally {
    for (const burner of burning) burner.kill('SIGKILL');
  }
}

async function run(): Promise<void> {
  const rows: (string | number)[][] = [];
  const load: string[] = [os.loadavg()[0].toFixed(1)];
  for (const size of sizes) {
    const workspace = tempDir();
    const services = await createServices({ workspace });
    await populateTasks(services, size);
    const engine = services.engine as unknown as Checkpointing;
    const forced = await measure(3, () => engine.checkpoint(), 0);
    const options = engine.store.options;
    const floor = async (): Promise<{ samples: number[]; offMainMs: number }> => {
      // A background checkpoint still under way would land in the floor's stream.
      while (engine.store.background?.running) await new Promise((resolve) => setTimeout(resolve, 50));
      const saved = { ...options };
      options.checkpointRecords = Number.MAX_SAFE_INTEGER;
      options.checkpointBytes = Number.MAX_SAFE_INTEGER;
      try {
        return await stream(services, size, Math.ceil(writes / 2), false);
      } finally {
        Object.assign(options, { checkpointRecords: saved.checkpointRecords, checkpointBytes: saved.checkpointBytes });
      }
    };
    const floorBefore = await floor();
    load.push(os.loadavg()[0].toFixed(1));
    const trace = tracing
      ? new WriteTrace(engine.store as unknown as ConstructorParameters<typeof WriteTrace>[0])
      : undefined;
    const ours = await stream(services, size, writes, true, trace);
    if (trace) await new Promise((resolve) => setTimeout(resolve, 100)); // the last GC entries
    trace?.dispose();
    if (trace)
      console.log(
        `\nWrites over 15 ms at ${size.toLocaleString('en')} tasks (checkpoints on):\n${
          trace
            .report()
            .map((line) => `- ${line}`)
            .join('\n') || '- none'
        }`,
      );
    load.push(os.loadavg()[0].toFixed(1));
    const floorAfter = await floor();
    const floorSamples = [...floorBefore.samples, ...floorAfter.samples];
    // CPU the checkpoints cost off the main thread: the checkpointed stream's, less what the floor
    // streams used off the main thread per write (GC helpers, libuv) for as many writes.
    const offMainPerWrite = (floorBefore.offMainMs + floorAfter.offMainMs) / floorSamples.length;
    const checkpointCpu = ours.checkpoints
      ? (ours.offMainMs - offMainPerWrite * ours.samples.length) / ours.checkpoints
      : NaN;
    load.push(os.loadavg()[0].toFixed(1));
    const checkpointMs = percentile(forced, 50);
    const image = bytes(fs.statSync(storePaths(services.paths.dbPath).image).size);
    const max = Math.max(...ours.samples);
    const floorMax = Math.max(...floorSamples);
    rows.push([
      size.toLocaleString('en'),
      image,
      'no checkpoint (floor: the journal fsync alone)',
      '-',
      '-',
      ms(percentile(floorSamples, 50)),
      ms(percentile(floorSamples, 99)),
      ms(floorMax),
      `${floorSamples.length.toLocaleString('en')} / 0`,
      '1.00×',
      verdict(floorMax <= 50 && percentile(floorSamples, 99) <= 10),
    ]);
    rows.push([
      size.toLocaleString('en'),
      image,
      'checkpoints on (background)',
      ms(checkpointMs),
      ms(checkpointCpu),
      ms(percentile(ours.samples, 50)),
      ms(percentile(ours.samples, 99)),
      ms(max),
      `${ours.samples.length.toLocaleString('en')} / ${ours.checkpoints}`,
      ratio(max, floorMax),
      verdict(max <= 50 && percentile(ours.samples, 99) <= 10),
    ]);
    services.dispose();
    fs.rmSync(path.join(workspace, '.agent-ledger'), { recursive: true, force: true });
  }
  printTable(
    'Every write of a stream of log_milestone calls, with and without the periodic checkpoint, ms',
    [
      'tasks',
      'image',
      'stream',
      'whole-image checkpoint in this thread (baseline)',
      'background checkpoint: CPU off the main thread, each',
      'write p50',
      'write p99',
      'slowest write',
      'writes / checkpoints during them',
      'slowest / floor',
      'target max ≤ 50, p99 ≤ 10',
    ],
    rows,
  );
  const burning = burners ? ` (${burners} CPU burner${burners > 1 ? 's' : ''} started by the bench)` : '';
  console.log(
    `\nLoad average (1 min) at the start and after each stream: ${load.join(', ')} on ${os.cpus().length} cores${burning}.`,
  );
}

void main();
