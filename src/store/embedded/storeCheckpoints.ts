import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage } from '../../core/errors';
import { fileSystemStoreError } from './fileSystemErrors';
import { BackgroundCheckpoint } from './backgroundCheckpoint';
import { installCheckpoint, withRetiredPrevious, writeCheckpoint } from './checkpointFiles';
import { StoreError } from '../errors';
import { StoreWrites } from './storeWrites';

/**
 * When and how the embedded store checkpoints (ledgerStore.ts): every few thousand journal records
 * or megabytes, after the write that crossed the threshold returned — a small image exported from
 * memory under the lock, a large one rebuilt by a worker thread (backgroundCheckpoint.ts) and only
 * installed under the lock.
 */
export abstract class StoreCheckpoints extends StoreWrites {
  private checkpointQueued = false;
  private background: BackgroundCheckpoint | undefined;
  /** After a failed checkpoint (a full disk), none before this time: the journal keeps every write meanwhile. */
  private retryCheckpointAt = 0;
  private reportedCheckpointFailure: string | undefined;

  override close(): void {
    this.background?.dispose();
    super.close();
  }

  /** Forces a checkpoint now, in this thread (tests, benchmarks, `db copy`; writers do it on their own). */
  checkpoint(): Promise<void> {
    this.assertOpen();
    if (this.options.readonly)
      return Promise.reject(new StoreError('readonly', 'this ledger store was opened read-only'));
    return this.enqueue(() => this.checkpointInThread()).catch((err: unknown) => this.rethrowCoded(err));
  }

  /**
   * Queues a checkpoint behind the write that asked for it, so that write returns first. A small
   * image is written here (the next write of this process waits the few milliseconds it takes); a
   * large one is prepared by a worker thread and writes go on meanwhile.
   */
  protected checkpointSoon(): void {
    if (this.checkpointQueued || this.background?.running) return;
    this.checkpointQueued = true;
    void this.enqueue(async () => {
      this.checkpointQueued = false;
      if (this.closed || !this.shouldCheckpoint() || Date.now() < this.retryCheckpointAt) return;
      if (imageSize(this.paths.image) < (this.options.backgroundCheckpointBytes ?? 2 * 1024 * 1024)) {
        await this.checkpointInThread().catch((err: unknown) => this.checkpointFailed(err));
        return;
      }
      this.background ??= new BackgroundCheckpoint(
        { dbPath: this.options.dbPath, imagePath: this.paths.image },
        (tmp, seq) => this.installPrepared(tmp, seq),
      );
      void this.background.start();
    });
  }

  /**
   * Puts a worker's image in place, in the write queue and under the lock, without touching the
   * in-memory database (already current): this process's journal cursor only moves to the new
   * journal's end. The files it replaces are freed after the lock (withRetiredPrevious).
   */
  private installPrepared(tmp: string, seq: number): Promise<void> {
    return withRetiredPrevious(this.paths, () =>
      this.enqueue(() =>
        this.withLock(() => {
          if (this.closed) return fs.rmSync(tmp, { force: true });
          const installed = installCheckpoint(this.paths, tmp, seq);
          if (installed) this.journal.adopt(installed, this._seq);
        }),
      ),
    );
  }

  /** Under the lock and the engine's gate: catches up, then writes the in-memory image. */
  private async checkpointInThread(): Promise<void> {
    await this.lock.acquire();
    try {
      await this.exclusive(async () => {
        if (this.closed) return;
        this.beginLocked(this._seq);
        this.checkpointLocked();
      });
    } finally {
      this.lock.release();
    }
  }

  /**
   * A checkpoint the store started by itself failed (on a full disk: the image copy did not fit).
   * Nothing is lost — the image and journal in place are untouched and the copy is removed — and
   * the write that asked for it was acknowledged already: say so once, and retry in a while.
   */
  private checkpointFailed(err: unknown): void {
    this.retryCheckpointAt = Date.now() + 30_000;
    const message = errorMessage(fileSystemStoreError(err, path.dirname(this.paths.image)));
    if (this.reportedCheckpointFailure === message) return;
    this.reportedCheckpointFailure = message;
    console.error(`[agent-ledger] checkpoint failed (the journal keeps every write; it retries in 30 s): ${message}`);
  }

  protected shouldCheckpoint(): boolean {
    return (
      this.journal.recordsSince(this._seq) >= (this.options.checkpointRecords ?? 2000) ||
      this.journal.size >= (this.options.checkpointBytes ?? 16 * 1024 * 1024)
    );
  }

  private checkpointLocked(): void {
    writeCheckpoint(this.paths, this.session.export(this._seq), this.journal, this._seq);
  }
}

function imageSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
