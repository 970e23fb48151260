import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fsyncDir, writeFileDurable } from '../core/files/durableWrite';
import { encodeImage } from './imageFile';
import type { JournalFile } from './journalFile';
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
