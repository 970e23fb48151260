// Extracts a VSIX (a zip) with Node's zlib only, so the tests can load exactly what was packaged
// without an `unzip` on the machine. Handles what vsce writes: stored and deflated entries.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';

/** Extracts `zipFile` into `outDir` (emptied first); returns the relative paths written. */
export function unzip(zipFile: string, outDir: string): string[] {
  const zip = readFileSync(zipFile);
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error(`${zipFile} is not a zip file`);
  const count = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  rmSync(outDir, { recursive: true, force: true });
  const written: string[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error(`${zipFile}: bad central directory entry ${i}`);
    const method = zip.readUInt16LE(offset + 10);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const localOffset = zip.readUInt32LE(offset + 42);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    offset += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    const dataStart = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    const target = path.join(outDir, name);
    if (!target.startsWith(path.resolve(outDir) + path.sep))
      throw new Error(`${zipFile}: entry escapes the folder: ${name}`);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, method === 8 ? inflateRawSync(data) : data);
    written.push(name);
  }
  return written;
}
