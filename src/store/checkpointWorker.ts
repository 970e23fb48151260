// The worker thread of a background checkpoint (backgroundCheckpoint.ts): prepares the image from
// the store's files and reports the temp file it wrote. Bundled as dist/checkpointWorker.js.
import * as fs from 'node:fs';
import * as os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { prepareCheckpointImage } from './checkpointImage';
import { loadSqlJs } from './sqlJs';

/** What the worker is given. */
export interface CheckpointJob {
  dbPath: string;
  imagePath: string;
}

/** What it answers: the prepared image, or why there is none. */
export type CheckpointReply = { ok: true; tmp: string; seq: number } | { ok: false; error: string };

/**
 * The worker gives way a little to the main thread's writes (nice 5 for this thread only: on Linux
 * a thread's id names it to setpriority), which it otherwise competes with for a core on a loaded
 * 2-core machine. Not lower: at nice 19 its share of a core among ten busy threads falls to ~0.15%
 * (CFS weight 15 against 1024 each), so under load a checkpoint would hardly progress while the
 * journal grows. Elsewhere (no /proc/thread-self) it runs as before.
 */
function yieldTheCpu(): void {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) os.setPriority(tid, 5);
  } catch {
    /* not Linux, or not allowed: keep the priority */
  }
}

async function run(job: CheckpointJob): Promise<CheckpointReply> {
  try {
    yieldTheCpu();
    return { ok: true, ...prepareCheckpointImage(await loadSqlJs(), job.dbPath, job.imagePath) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

if (parentPort) {
  const port = parentPort;
  void run(workerData as CheckpointJob).then((reply) => port.postMessage(reply));
}
