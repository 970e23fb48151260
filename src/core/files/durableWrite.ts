import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Replaces `file` with `bytes` so that any reader, and the file after a crash, holds either
 * the old content or the new one, never a mix: temp file in the same folder, fsync, rename,
 * fsync the folder. The one place that does this: the store's image and journal, pipeline
 * state, memory entries, checksum manifests and MCP client configs all go through it.
 */
export function writeFileDurable(file: string, bytes: Uint8Array | string, mode = 0o666): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${randomBytes(6).toString('hex')}`;
  // Exclusive create: never opened through a link someone put at that name.
  const fd = fs.openSync(tmp, 'wx', mode);
  try {
    try {
      fs.writeFileSync(fd, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    // A full disk stops the copy half-way: it goes, or every retry would leave one more behind.
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(path.dirname(file));
}

/** Makes a rename durable. Windows cannot open folders; there the rename is already durable enough. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    /* not supported on this platform */
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
