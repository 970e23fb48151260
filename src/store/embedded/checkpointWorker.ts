// The worker thread of a background checkpoint (backgroundCheckpoint.ts): prepares the image from
// the store's files and reports the temp file it wrote. Bundled as dist/checkpointWorker.js.
import * as os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { prepareCheckpointImage } from './checkpointImage';
import { loadSqlJs } from './sqlJs';

/** What the worker is given. */
export interface CheckpointJob {
  dbPath: string;
  imagePath: string;
  /** sql.js compiled by the starting thread (sqlJs.ts), instantiated here without compiling again. */
  wasm?: WebAssembly.Module;
}

/** What it answers: the prepared image, or why there is none. */
export type CheckpointReply = { ok: true; tmp: string; seq: number } | { ok: false; error: string };

async function run(job: CheckpointJob): Promise<CheckpointReply> {
  try {
    return { ok: true, ...prepareCheckpointImage(await loadSqlJs(job.wasm), job.dbPath, job.imagePath) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/**
 * Gives this thread the lowest CPU priority, so that the checkpoint never takes a core from the
 * thread that acknowledges writes. On Linux a thread is a task of its own and `setpriority` on id
 * 0 sets the nice value of the calling thread only (the serving thread keeps its own); elsewhere
 * it would lower the whole process, so it is left alone there. With the cores busy, a write's
 * fdatasync woke into a run queue shared with this thread and waited for a CPU.
 */
function yieldTheCpu(): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(19);
  } catch {
    /* not allowed here: the checkpoint runs at the normal priority */
  }
}

if (parentPort) {
  const port = parentPort;
  yieldTheCpu();
  void run(workerData as CheckpointJob).then((reply) => port.postMessage(reply));
}
