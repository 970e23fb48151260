import * as fs from 'node:fs';
import type { SqlJsStatic } from 'sql.js';
import { JournaledDatabase } from './journaledDatabase';
import { imageTrailer } from './imageFile';
import { writeDurableTemp } from './checkpointFiles';

/**
 * A checkpoint's image built from the files alone — the image on disk plus the journal's records,
 * replayed exactly as any reader replays them — so it can be prepared away from the process's
 * own in-memory database (in a worker thread, see backgroundCheckpoint.ts) while writes go on.
 */
class ImageBuilder extends JournaledDatabase {
  static build(SQL: SqlJsStatic, dbPath: string): { database: Uint8Array; seq: number } {
    const builder = new ImageBuilder(SQL, { dbPath, readonly: true });
    try {
      builder.catchUp();
      return { database: builder.session.export(builder._seq), seq: builder._seq };
    } finally {
      builder.close();
    }
  }
}

/**
 * Writes the image of everything the files of `dbPath` hold now to a durable temp file beside
 * the image (`ledger.db.tmp-…`, which a later checkpoint removes if nobody installs it) and
 * returns its name and the seq it holds. Needs no lock: it reads like any reader.
 */
export function prepareCheckpointImage(
  SQL: SqlJsStatic,
  dbPath: string,
  imagePath: string,
): { tmp: string; seq: number } {
  const { database, seq } = ImageBuilder.build(SQL, dbPath);
  const tmp = writeDurableTemp(imagePath, (fd) => {
    writeSynced(fd, database);
    writeAll(fd, imageTrailer(database), database.length);
  });
  return { tmp, seq };
}

/**
 * Writes the image 1 MiB at a time, each piece flushed before the next: the store's writes fsync
 * the journal on the same file system meanwhile, and one large flush of the whole image at the end
 * made those fsyncs wait behind tens of MiB.
 */
function writeSynced(fd: number, bytes: Uint8Array): void {
  const piece = 1024 * 1024;
  for (let at = 0; at < bytes.length; at += piece) {
    writeAll(fd, bytes.subarray(at, Math.min(bytes.length, at + piece)), at);
    // The last piece is flushed with the trailer by the caller's fsync.
    if (at + piece < bytes.length) fs.fdatasyncSync(fd);
  }
}

function writeAll(fd: number, bytes: Uint8Array, at = 0): void {
  let written = 0;
  while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written, at + written);
}
