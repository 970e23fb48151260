import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fsyncDir, writeFileDurable } from '../core/files/durableWrite';
import { encodeImage } from './imageFile';
import { encodeHeader, readAll, readHeader } from './journal';
import type { JournalFile } from './journalFile';
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
 * image was prepared. Refused (the temp file removed, false returned) when that image is no newer
 * than the journal's base (another process checkpointed meanwhile) or the journal does not hold
 * the records after it intact.
 */
export function installCheckpoint(paths: StorePaths, tmpImage: string, seq: number): boolean {
  const current = readJournal(paths.journal);
  const tail = current && current.baseSeq < seq && seq <= current.lastSeq ? recordsAfter(current.file, seq, current.lastSeq) : undefined;
  if (!current || !tail) {
    fs.rmSync(tmpImage, { force: true });
    return false;
  }
  keepPrevious(paths.image, paths.prevImage);
  keepPrevious(paths.journal, paths.prevJournal);
  fs.renameSync(tmpImage, paths.image);
  fsyncDir(path.dirname(paths.image));
  const header = encodeHeader({ generation: (current.generation + 1) >>> 0 || 1, baseSeq: seq, lastSeq: current.lastSeq });
  writeFileDurable(paths.journal, Buffer.concat([header, tail]));
  removeStaleTemps(path.dirname(paths.image));
  return true;
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
    return { file: readAll(fd), generation: read.header.generation, baseSeq: read.header.baseSeq, lastSeq: read.header.lastSeq };
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes `prev` name what `file` names now (atomically replacing an older `prev`). */
export function keepPrevious(file: string, prev: string): void {
  const tmp = `${prev}.tmp-${randomBytes(6).toString('hex')}`;
  try {
    fs.linkSync(file, tmp);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    // A file system without hard links: copy instead.
    fs.copyFileSync(file, tmp);
  }
  try {
    fs.renameSync(tmp, prev);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(path.dirname(prev));
}

/** Temp files of writers killed mid-checkpoint. */
function removeStaleTemps(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    if (!name.includes('.tmp-')) continue;
    const file = path.join(dir, name);
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > 60_000) fs.unlinkSync(file);
    } catch {
      /* gone already */
    }
  }
}
