import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CheckpointJob, CheckpointReply } from './checkpointWorker';
import { compiledSqlJs } from './sqlJs';

/**
 * Checkpoints of a large image, off the write path: a worker thread rebuilds the image from the
 * store's files (its own sql.js, the same replay as any reader) and writes it to a durable temp
 * file while this process keeps writing; then `install` puts it in place under the store's lock,
 * which costs a few renames and a copy of the journal records appended meanwhile — not a pass
 * over the whole database. One at a time; the worker exits when it is done, so its memory is
 * only held while it works.
 */
export class BackgroundCheckpoint {
  private worker: Worker | undefined;
  private closed = false;
  private reported: string | undefined;
  /** After a failure, no new worker before this time (a damaged store would fail every time). */
  private retryAt = 0;

  constructor(
    private readonly job: CheckpointJob,
    /** Under the store's lock, in its write queue: installs the prepared image (or refuses it). */
    private readonly install: (tmp: string, seq: number) => Promise<unknown>,
  ) {}

  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Starts one unless one is running; resolves when it is installed, refused or failed. */
  start(): Promise<void> {
    if (this.worker || this.closed || Date.now() < this.retryAt) return Promise.resolve();
    return new Promise((resolve) => {
      const worker = startWorker(this.job);
      this.worker = worker;
      // A checkpoint never keeps a CLI or server process alive: the journal holds every write.
      worker.unref();
      let settled = false;
      const finish = async (reply: CheckpointReply): Promise<void> => {
        if (settled) return;
        settled = true;
        void worker.terminate();
        try {
          if (reply.ok) {
            if (this.closed) fs.rmSync(reply.tmp, { force: true });
            else await this.install(reply.tmp, reply.seq);
          } else if (!this.closed) this.report(reply.error);
        } catch (err) {
          this.report((err as Error).message);
        } finally {
          this.worker = undefined;
          resolve();
        }
      };
      worker.once('message', (reply: CheckpointReply) => void finish(reply));
      worker.once('error', (err) => void finish({ ok: false, error: err.message }));
      worker.once('exit', (code) => void finish({ ok: false, error: `the checkpoint worker exited (code ${code})` }));
    });
  }

  dispose(): void {
    this.closed = true;
    void this.worker?.terminate();
  }

  /** A failed checkpoint loses nothing (the journal keeps every write); say so once per reason. */
  private report(error: string): void {
    this.retryAt = Date.now() + 30_000;
    if (this.reported === error) return;
    this.reported = error;
    console.error(
      `[agent-ledger] background checkpoint failed (the journal keeps every write; the next checkpoint retries): ${error}`,
    );
  }
}

/**
 * dist/checkpointWorker.js beside the bundle; from sources (tests and benchmarks run TypeScript
 * through tsx, whose loader a worker does not inherit) the .ts file, loaded through tsx's require hook.
 */
function startWorker(given: CheckpointJob): Worker {
  const job: CheckpointJob = { ...given, wasm: compiledSqlJs() };
  const bundled = path.join(__dirname, 'checkpointWorker.js');
  if (fs.existsSync(bundled)) return new Worker(bundled, { workerData: job });
  const source = path.join(__dirname, 'checkpointWorker.ts');
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)});`, { eval: true, workerData: job });
}
