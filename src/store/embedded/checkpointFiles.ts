import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fsyncDir, writeFileDurable } from '../../core/files/durableWrite';
import { encodeImage } from './imageFile';
import { encodeHeader, HEADER_SIZE, readAll, readHeader } from './journal';
import type { InstalledJournal, JournalFile } from './journalFile';
import { recordsAfter } from './journalScan';
import type { StorePaths } from './storePaths';

/**
 * Under the lock: folds the journal into a new image. The image and journal being replaced are
 * kept as `ledger.db.prev` and `ledger.journal.prev` (hard links, so it costs two renames, not a
 * copy): the previous image plus the journal generation that followed it rebuild the new image
 * if that one is ever damaged. At every instant `ledger.db` and `ledger.journal` exist, and the
 * previous pair holds everything up to the current image's seq.
 */
export function writeCheckpoint(paths: StorePaths, database: Uint8Array, journal: JournalFile, seq: number): void {
  keepPrevious(paths.image, paths.prevImage);
  keepPrevious(paths.journal, paths.prevJournal);
  writeFileDurable(paths.image, encodeImage(database));
  journal.startNextGeneration(seq);
  removeStaleTemps(path.dirname(paths.image));
}

/**
 * Under the lock: puts in place an image prepared off the write path (checkpointImage.ts) that
 * holds everything up to `seq`. Same order and the same previous pair as `writeCheckpoint`; the
 * journal's next generation starts after `seq` and carries over the records appended since the
 * image was prepared. Refused (the temp file removed, false returned) when that image is no
 * newer than the journal's base (another process checkpointed meanwhile) or the journal does not
 * hold the records after it intact.
 *
 * Kept short, since writes wait for it: the new journal is written before anything is renamed,
 * and the three renames that keep the previous pair and put the image in place share one folder
 * fsync (at each instant in between the image and journal in place agree: the new image with the
 * old journal is a valid pair, its records up to `seq` are skipped). Blocks of files the renames
 * replace are freed by `retirePrevious`/`discardSlowly` outside the lock, not here.
 */
export function installCheckpoint(paths: StorePaths, tmpImage: string, seq: number): InstalledJournal | false {
  const current = readJournal(paths.journal);
  const tail =
    current && current.baseSeq < seq && seq <= current.lastSeq
      ? recordsAfter(current.file, seq, current.lastSeq)
      : undefined;
  if (!current || !tail) {
    fs.rmSync(tmpImage, { force: true });
    return false;
  }
  const next = { generation: (current.generation + 1) >>> 0 || 1, baseSeq: seq, lastSeq: current.lastSeq };
  let tmpJournal: string | undefined;
  try {
    tmpJournal = writeTempDurable(paths.journal, Buffer.concat([encodeHeader(next), tail]));
    keepPrevious(paths.image, paths.prevImage, false);
    keepPrevious(paths.journal, paths.prevJournal, false);
    fs.renameSync(tmpImage, paths.image);
    fsyncDir(path.dirname(paths.image));
    fs.renameSync(tmpJournal, paths.journal);
  } catch (err) {
    // Neither copy stays behind (on a full disk each retry would leave an image more): the pair in place is intact.
    if (tmpJournal !== undefined) fs.rmSync(tmpJournal, { force: true });
    fs.rmSync(tmpImage, { force: true });
    throw err;
  }
  fsyncDir(path.dirname(paths.journal));
  return { ...next, end: HEADER_SIZE + tail.length };
}

/** Runs `install` with the previous pair retired before it and the retired files (and stale temps) discarded after it. */
export async function withRetiredPrevious<T>(paths: StorePaths, install: () => Promise<T>): Promise<T> {
  const retired = retirePrevious(paths);
  try {
    return await install();
  } finally {
    await discardSlowly([...retired, ...staleTemps(path.dirname(paths.image))]);
  }
}

/**
 * Before taking the lock for an install: gives the previous image and journal a second name, so
 * the renames under the lock replace them without freeing their blocks (freeing tens of MiB took
 * ~20 ms of the install on this machine's ext4). Returns the names to hand to `discardSlowly`
 * once the install is over.
 */
export function retirePrevious(paths: StorePaths): string[] {
  const retired: string[] = [];
  for (const file of [paths.prevImage, paths.prevJournal]) {
    const name = `${file}.tmp-retired-${randomBytes(6).toString('hex')}`;
    try {
      fs.linkSync(file, name);
      retired.push(name);
    } catch {
      /* absent, or no hard links here: the rename frees it, as before */
    }
  }
  return retired;
}

/**
 * Off the write path: removes retired files. A file no other name holds any more is shrunk 4 MiB
 * at a time first, so the file system frees (and discards) its blocks in small steps instead of
 * holding up the journal's next fsyncs with one large free; one still named elsewhere (an install
 * that was refused) only loses this name.
 */
export async function discardSlowly(files: string[]): Promise<void> {
  const step = 4 * 1024 * 1024;
  for (const file of files) {
    try {
      const stat = await fs.promises.stat(file);
      if (stat.nlink === 1) {
        for (let size = stat.size - step; size > 0; size -= step) {
          await fs.promises.truncate(file, size);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
      await fs.promises.unlink(file);
    } catch {
      /* gone already; a later checkpoint's removeStaleTemps takes what is left */
    }
  }
}

/** A durable temp file beside `file` holding `bytes` (not renamed yet). */
function writeTempDurable(file: string, bytes: Buffer): string {
  return writeDurableTemp(file, (fd) => fs.writeFileSync(fd, bytes));
}

/**
 * A temp file beside `file` (a random name, created exclusively) filled by `fill` and fsynced; on
 * any failure it is removed and the error thrown. Returns its path (not renamed yet).
 */
export function writeDurableTemp(file: string, fill: (fd: number) => void): string {
  const tmp = `${file}.tmp-${randomBytes(6).toString('hex')}`;
  const fd = fs.openSync(tmp, 'wx');
  try {
    fill(fd);
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  return tmp;
}

function readJournal(file: string): { file: Buffer; generation: number; baseSeq: number; lastSeq: number } | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const read = readHeader(fd);
    // A legacy header (no last seq) is upgraded by the next append; the checkpoint after that one installs.
    if (!read.ok || read.header.lastSeq === undefined) return undefined;
    return {
      file: readAll(fd),
      generation: read.header.generation,
      baseSeq: read.header.baseSeq,
      lastSeq: read.header.lastSeq,
    };
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes `prev` name what `file` names now (atomically replacing an older `prev`); `durable`: fsync the folder. */
export function keepPrevious(file: string, prev: string, durable = true): void {
  const tmp = `${prev}.tmp-${randomBytes(6).toString('hex')}`;
  try {
    fs.linkSync(file, tmp);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    // A file system without hard links: copy instead.
    try {
      fs.copyFileSync(file, tmp);
    } catch (copyErr) {
      fs.rmSync(tmp, { force: true });
      throw copyErr;
    }
  }
  try {
    fs.renameSync(tmp, prev);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  if (durable) fsyncDir(path.dirname(prev));
}

/** Temp files of writers killed mid-checkpoint. */
export function removeStaleTemps(dir: string): void {
  for (const file of staleTemps(dir)) {
    try {
      fs.unlinkSync(file);
    } catch {
      /* gone already */
    }
  }
}

/** Temp files (`….tmp-…`) in `dir` untouched for a minute: left by a process killed mid-checkpoint. */
export function staleTemps(dir: string): string[] {
  const stale: string[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (!name.includes('.tmp-')) continue;
    const file = path.join(dir, name);
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > 60_000) stale.push(file);
    } catch {
      /* gone already */
    }
  }
  return stale;
}
