// The worker thread of a background checkpoint (backgroundCheckpoint.ts): prepares the image from
// the store's files and reports the temp file it wrote. Bundled as dist/checkpointWorker.js.
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

async function run(job: CheckpointJob): Promise<CheckpointReply> {
  try {
    return { ok: true, ...prepareCheckpointImage(await loadSqlJs(), job.dbPath, job.imagePath) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

if (parentPort) {
  const port = parentPort;
  void run(workerData as CheckpointJob).then((reply) => port.postMessage(reply));
}
