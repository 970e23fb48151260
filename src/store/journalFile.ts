import * as fs from 'node:fs';
import * as path from 'node:path';
import { fsyncDir, writeFileDurable } from '../core/files/durableWrite';
import { StoreError } from './errors';
import { encodeHeader, encodeRecord, HEADER_SIZE, readHeader, readRecords } from './journal';
import type { JournalRecord } from './journal';

/** What a catch-up needs from the store holding the in-memory database. */
export interface Replayer {
  /** Highest sequence number applied in memory. */
  readonly seq: number;
  apply(record: JournalRecord): void;
  /** Loads the image again (it holds everything up to some seq ≥ a checkpoint's base). */
  reloadImage(): void;
}

/**
 * This process's cursor in the journal file: which generation it reads, where that file's
 * records start (baseSeq), how far it has read, and whether a torn tail follows. Reading needs
 * no lock; `prepare`, `append` and `reset` run under the store's lock.
 */
export class JournalFile {
  private generation: number | undefined;
  private baseSeq = 0;
  private offset = HEADER_SIZE;
  private trailing = false;
  private stamp: { ino: number; size: number; mtimeMs: number } | undefined;

  constructor(readonly path: string) {}

  /** Records in this journal file since its checkpoint. */
  recordsSince(seq: number): number {
    return seq - this.baseSeq;
  }

  get size(): number {
    return this.offset;
  }

  /** Cheap test (one stat) for "another process may have written". */
  changedOnDisk(): boolean {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.path);
    } catch {
      return false;
    }
    const prev = this.stamp;
    return !(prev && prev.ino === stat.ino && prev.size === stat.size && prev.mtimeMs === stat.mtimeMs);
  }

  /** Forgets the file read so far: the image was (re)loaded and the next read starts over. */
  rewind(): void {
    this.generation = undefined;
    this.offset = HEADER_SIZE;
  }

  /** Applies every complete record newer than `target.seq`, reloading the image when behind it. */
  catchUp(target: Replayer): void {
    for (let attempt = 0; attempt < 20; attempt++) {
      let fd: number;
      try {
        fd = fs.openSync(this.path, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      try {
        if (this.catchUpFrom(fd, target)) return;
      } finally {
        fs.closeSync(fd);
      }
    }
    throw new StoreError('corrupt', `could not catch up with ${this.path}: its records do not follow the image`);
  }

  /** One attempt on an open journal; false when the image was reloaded and reading must restart. */
  private catchUpFrom(fd: number, target: Replayer): boolean {
    const stat = fs.fstatSync(fd);
    const header = readHeader(fd);
    if (!header) throw new StoreError('corrupt', `${this.path} has no valid header`);
    if (header.generation !== this.generation) {
      if (target.seq < header.baseSeq) {
        // The records we miss were folded into a newer image by a checkpoint (or that image is
        // not renamed into place yet: then we retry).
        target.reloadImage();
        if (target.seq < header.baseSeq) return false;
      }
      this.generation = header.generation;
      this.baseSeq = header.baseSeq;
      this.offset = HEADER_SIZE;
    }
    const { records, end, trailing } = readRecords(fd, this.offset);
    for (const record of records) {
      if (record.seq <= target.seq) continue;
      if (record.seq !== target.seq + 1) {
        target.reloadImage();
        return false;
      }
      target.apply(record);
    }
    this.offset = end;
    this.trailing = trailing;
    this.stamp = { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
    return true;
  }

  /** Under the lock: creates the journal if absent and cuts off a dead writer's torn tail. */
  prepare(seq: number): void {
    if (!fs.existsSync(this.path)) {
      this.reset(1, seq);
      return;
    }
    if (this.trailing) {
      fs.truncateSync(this.path, this.offset);
      this.trailing = false;
    }
  }

  /** Under the lock: appends one record and fsyncs it. */
  append(record: JournalRecord): void {
    const bytes = encodeRecord(record);
    const fd = fs.openSync(this.path, 'r+');
    try {
      const size = fs.fstatSync(fd).size;
      if (size !== this.offset) {
        // Someone appended without the lock (a holder that stalled past staleMs): refuse
        // rather than write a record whose sequence number may collide.
        throw new StoreError('busy', `the journal changed under the lock (expected ${this.offset} bytes, found ${size}); retry`);
      }
      let written = 0;
      while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written, this.offset + written);
      fs.fdatasyncSync(fd);
      const stat = fs.fstatSync(fd);
      this.stamp = { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
    } finally {
      fs.closeSync(fd);
    }
    this.offset += bytes.length;
  }

  /** Under the lock: atomically replaces the journal with an empty one of the next generation, starting after `seq`. */
  startNextGeneration(seq: number): void {
    this.reset(((this.generation ?? 0) + 1) >>> 0 || 1, seq);
  }

  private reset(generation: number, baseSeq: number): void {
    writeFileDurable(this.path, encodeHeader({ generation, baseSeq }));
    this.generation = generation;
    this.baseSeq = baseSeq;
    this.offset = HEADER_SIZE;
    this.trailing = false;
    const stat = fs.statSync(this.path);
    this.stamp = { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
    fsyncDir(path.dirname(this.path));
  }
}
