import * as fs from 'node:fs';
import * as path from 'node:path';
import { fsyncDir, writeFileDurable } from '../../core/files/durableWrite';
import { damagedError, keepDamagedCopy, sleepSync } from './damage';
import { StoreError } from '../errors';
import { encodeHeader, encodeRecord, HEADER_SIZE, readAll, readHeader } from './journal';
import type { JournalRecord } from './journal';
import { readRun } from './journalScan';

/** Where this process's journal cursor stands after it installed a checkpoint (journalFile.ts `adopt`). */
export interface InstalledJournal {
  generation: number;
  baseSeq: number;
  lastSeq: number;
  /** Byte offset just past the last record of the new journal. */
  end: number;
}

/** What a catch-up needs from the store holding the in-memory database. */
export interface Replayer {
  /** Highest sequence number applied in memory. */
  readonly seq: number;
  apply(record: JournalRecord): void;
  /** Loads the image again (it holds everything up to some seq ≥ a checkpoint's base). */
  reloadImage(): void;
}

interface Stamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

type Attempt = { done: true } | { done: false; damage?: string };

/**
 * This process's cursor in the journal file: which generation it reads, where that file's
 * records start (baseSeq), how far it has read, and whether a torn tail follows. Reading needs
 * no lock; `prepare`, `append` and `reset` run under the store's lock.
 *
 * Damage (anything but a torn tail, see journalScan.ts) throws a `damaged` StoreError, keeps a
 * copy of the file, and sticks: the same error comes back without re-reading until the file
 * changes (a repair replaces it).
 */
export class JournalFile {
  private generation: number | undefined;
  private baseSeq = 0;
  private offset = HEADER_SIZE;
  /** Seq of the last record read from this generation's file (baseSeq before any). */
  private lastSeq = 0;
  private trailing = false;
  private stamp: Stamp | undefined;
  private damage: { stamp: Stamp | undefined; error: StoreError } | undefined;

  /** `keepCopies`: keep a copy of a damaged journal when damage is found (not for read-only stores). */
  constructor(
    readonly path: string,
    private readonly keepCopies = true,
    /** The previous generation a checkpoint keeps (`ledger.journal.prev`): a lagging reader catches up from it. */
    private readonly previousPath?: string,
  ) {}

  /** Records in this journal file since its checkpoint. */
  recordsSince(seq: number): number {
    return seq - this.baseSeq;
  }

  get size(): number {
    return this.offset;
  }

  /** Cheap test (one stat) for "another process may have written". */
  changedOnDisk(): boolean {
    const now = statQuiet(this.path);
    return now !== undefined && !sameStamp(this.stamp, now);
  }

  /** Forgets the file read so far: the image was (re)loaded and the next read starts over. */
  rewind(): void {
    this.generation = undefined;
    this.offset = HEADER_SIZE;
  }

  /**
   * Under the lock, right after this process installed a checkpoint (checkpointFiles.ts): when
   * it had read the old journal to its end and applied all of it (`seq`), it reads on from the
   * new journal's end instead of reading the carried-over records again.
   */
  adopt(installed: InstalledJournal, seq: number): void {
    if (this.lastSeq !== installed.lastSeq || seq !== installed.lastSeq || this.trailing || this.damage) return;
    this.generation = installed.generation;
    this.baseSeq = installed.baseSeq;
    this.lastSeq = installed.lastSeq;
    this.offset = installed.end;
    this.stamp = statQuiet(this.path);
  }

  /** Applies every complete record newer than `target.seq`, reloading the image when behind it. */
  catchUp(target: Replayer): void {
    if (this.damage) {
      if (sameStamp(this.damage.stamp, statQuiet(this.path))) throw this.damage.error;
      this.damage = undefined;
      this.rewind();
    }
    let damageSeen = 0;
    for (let attempt = 0; attempt < 20; attempt++) {
      let fd: number;
      try {
        fd = fs.openSync(this.path, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      let result: Attempt;
      const stamp = stampOf(fs.fstatSync(fd));
      try {
        result = this.catchUpFrom(fd, target, stamp);
      } finally {
        fs.closeSync(fd);
      }
      if (result.done) return;
      if (result.damage) {
        // A lockless reader may have caught the header in the middle of its rewrite: look
        // again before calling it damage.
        if (++damageSeen >= 3) this.fail(result.damage, stamp);
        sleepSync(2);
      }
    }
    this.fail(
      `its records do not follow the image (seq ${target.seq}): the image is older than the journal's base (seq ${this.baseSeq}) or was replaced`,
      undefined,
    );
  }

  /** One attempt on an open journal; not done when the image was reloaded or damage was seen. */
  private catchUpFrom(fd: number, target: Replayer, stamp: Stamp): Attempt {
    const read = readHeader(fd);
    if (!read.ok) return { done: false, damage: read.problem };
    const header = read.header;
    if (header.generation !== this.generation) {
      if (target.seq < header.baseSeq && !this.catchUpFromPrevious(target, header.baseSeq)) {
        // The records we miss were folded into a newer image by a checkpoint (or that image is
        // not renamed into place yet: then we retry).
        target.reloadImage();
        if (target.seq < header.baseSeq) return { done: false };
      }
      this.generation = header.generation;
      this.baseSeq = header.baseSeq;
      this.offset = HEADER_SIZE;
      this.lastSeq = header.baseSeq;
    }
    const run = readRun(readAll(fd, this.offset), this.offset, this.lastSeq, header.lastSeq);
    if (run.damage) return { done: false, damage: run.damage };
    for (const record of run.records) {
      if (record.seq <= target.seq) continue;
      if (record.seq !== target.seq + 1) {
        target.reloadImage();
        return { done: false };
      }
      try {
        target.apply(record);
      } catch (err) {
        if (StoreError.is(err, 'damaged')) return { done: false, damage: err.message };
        throw err;
      }
    }
    if (run.records.length) this.lastSeq = run.records[run.records.length - 1].seq;
    this.offset = run.end;
    this.trailing = run.trailing;
    this.stamp = stamp;
    return { done: true };
  }

  /**
   * A checkpoint folded records this process has not applied yet into a newer image. When the
   * generation it was reading is now the previous journal (kept by that checkpoint), it applies
   * the records it misses from there, up to the new journal's base, instead of loading the whole
   * image again. False (nothing applied that matters: the caller reloads the image) when that
   * file is not the generation it read, or does not hold those records intact.
   */
  private catchUpFromPrevious(target: Replayer, upTo: number): boolean {
    if (this.generation === undefined || !this.previousPath) return false;
    let fd: number;
    try {
      fd = fs.openSync(this.previousPath, 'r');
    } catch {
      return false;
    }
    try {
      const read = readHeader(fd);
      if (!read.ok || read.header.generation !== this.generation || read.header.baseSeq !== this.baseSeq) return false;
      const run = readRun(readAll(fd, this.offset), this.offset, this.lastSeq, read.header.lastSeq);
      if (run.damage) return false;
      for (const record of run.records) {
        if (record.seq <= target.seq) continue;
        if (record.seq > upTo || record.seq !== target.seq + 1) break;
        target.apply(record);
      }
    } catch (err) {
      if (StoreError.is(err, 'damaged')) return false;
      throw err;
    } finally {
      fs.closeSync(fd);
    }
    return target.seq >= upTo;
  }

  private fail(problem: string, stamp: Stamp | undefined): never {
    const error = damagedError(this.path, problem, this.keepCopies ? keepDamagedCopy(this.path) : undefined);
    this.damage = { stamp: stamp ?? statQuiet(this.path), error };
    throw error;
  }

  /** Under the lock: creates the journal if absent and cuts off a dead writer's torn tail. */
  prepare(seq: number): void {
    if (!fs.existsSync(this.path)) {
      this.reset(1, seq);
      return;
    }
    if (this.trailing) {
      // Only ever a torn tail: catchUp (under this same lock) threw on anything else.
      fs.truncateSync(this.path, this.offset);
      this.trailing = false;
    }
  }

  /**
   * Under the lock: appends one record, then rewrites the header with the new last seq (which
   * upgrades a legacy header), and fdatasyncs both at once.
   */
  append(record: JournalRecord): void {
    const bytes = encodeRecord(record);
    const header = encodeHeader({ generation: this.generation ?? 1, baseSeq: this.baseSeq, lastSeq: record.seq });
    const fd = fs.openSync(this.path, 'r+');
    try {
      const size = fs.fstatSync(fd).size;
      if (size !== this.offset) {
        // Someone appended without the lock (a holder that stalled past staleMs): refuse
        // rather than write a record whose sequence number may collide.
        throw new StoreError(
          'busy',
          `the journal changed under the lock (expected ${this.offset} bytes, found ${size}); retry`,
        );
      }
      try {
        writeAll(fd, bytes, this.offset);
        // After the record: a reader that sees the new lastSeq also sees the record.
        writeAll(fd, header, 0);
        fs.fdatasyncSync(fd);
      } catch (err) {
        // A full disk stopped the record half-way: cut it off (a reader would take it for a torn tail).
        truncateQuiet(fd, this.offset);
        throw err;
      }
      this.stamp = stampOf(fs.fstatSync(fd));
    } finally {
      fs.closeSync(fd);
    }
    this.offset += bytes.length;
    this.lastSeq = record.seq;
  }

  /** Under the lock: atomically replaces the journal with an empty one of the next generation, starting after `seq`. */
  startNextGeneration(seq: number): void {
    this.reset(((this.generation ?? 0) + 1) >>> 0 || 1, seq);
  }

  private reset(generation: number, baseSeq: number): void {
    writeFileDurable(this.path, encodeHeader({ generation, baseSeq }));
    this.generation = generation;
    this.baseSeq = baseSeq;
    this.lastSeq = baseSeq;
    this.offset = HEADER_SIZE;
    this.trailing = false;
    this.stamp = statQuiet(this.path);
    fsyncDir(path.dirname(this.path));
  }
}

function writeAll(fd: number, bytes: Buffer, at: number): void {
  let written = 0;
  while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written, at + written);
}

function truncateQuiet(fd: number, size: number): void {
  try {
    fs.ftruncateSync(fd, size);
  } catch {
    /* the next writer under the lock cuts it off as a torn tail */
  }
}

function stampOf(stat: fs.Stats): Stamp {
  return { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
}

function statQuiet(file: string): Stamp | undefined {
  try {
    return stampOf(fs.statSync(file));
  } catch {
    return undefined;
  }
}

function sameStamp(a: Stamp | undefined, b: Stamp | undefined): boolean {
  return a !== undefined && b !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}
