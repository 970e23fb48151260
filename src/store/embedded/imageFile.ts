import * as fs from 'node:fs';
import { crc32 } from 'node:zlib';

/**
 * The image file: the SQLite database sql.js exports, followed by a 16-byte trailer
 *
 *   "ALIMG1\0\0" | length of the database u32 | crc32(database) u32
 *
 * so a damaged image is caught when it is loaded instead of when a query happens to touch the
 * damaged page (or never: SQLite does not checksum its pages). SQLite ignores bytes past the page
 * count its header declares, so older builds still open a trailed image. Images written before
 * the trailer existed ("legacy") open unverified until the next checkpoint rewrites them.
 */
const TRAILER = 16;
const MAGIC = Buffer.from('ALIMG1\0\0', 'latin1');
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

export type ImageRead =
  | { status: 'missing' }
  | { status: 'ok' | 'legacy'; database: Buffer; bytes: number }
  | { status: 'damaged'; problem: string; bytes: number };

/** The image with its trailer, ready to be written. */
export function encodeImage(database: Uint8Array): Buffer {
  return Buffer.concat([database, imageTrailer(database)]);
}

/** The 16 bytes that follow the database in the image file (written apart, it spares a copy of the database). */
export function imageTrailer(database: Uint8Array): Buffer {
  const trailer = Buffer.alloc(TRAILER);
  MAGIC.copy(trailer, 0);
  trailer.writeUInt32LE(database.length, 8);
  trailer.writeUInt32LE(crc32(database), 12);
  return trailer;
}

/** Checks an image's bytes; the database part comes back without its trailer. */
export function decodeImage(bytes: Buffer): ImageRead {
  const size = bytes.length;
  if (size >= TRAILER && bytes.subarray(size - TRAILER, size - 8).equals(MAGIC)) {
    const length = bytes.readUInt32LE(size - 8);
    if (length !== size - TRAILER)
      return {
        status: 'damaged',
        problem: `its trailer says ${length} bytes of database, the file holds ${size - TRAILER}`,
        bytes: size,
      };
    const database = bytes.subarray(0, length);
    if (crc32(database) !== bytes.readUInt32LE(size - 4))
      return { status: 'damaged', problem: 'its checksum does not match', bytes: size };
    return { status: 'ok', database, bytes: size };
  }
  // No trailer: a legacy image is a whole SQLite file, exactly as many pages as its header says.
  if (size < 100 || !bytes.subarray(0, 16).equals(SQLITE_MAGIC))
    return { status: 'damaged', problem: 'it is neither a ledger image nor a SQLite database', bytes: size };
  const pageSize = bytes.readUInt16BE(16) === 1 ? 65536 : bytes.readUInt16BE(16);
  const pages = bytes.readUInt32BE(28);
  if (pages === 0 || pageSize * pages !== size)
    return {
      status: 'damaged',
      problem: `its size (${size} bytes) is not the ${pages} pages of ${pageSize} bytes its header declares, and it has no intact trailer`,
      bytes: size,
    };
  return { status: 'legacy', database: bytes, bytes: size };
}

/** Reads and checks the image at `file`. */
export function readImage(file: string): ImageRead {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
    throw err;
  }
  return decodeImage(bytes);
}
