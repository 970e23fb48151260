import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Creates `file` with `content` only if it does not exist yet, atomically: readers never see
 * a half-written file and two writers never overwrite each other (the content goes to a temp
 * file that is then hard-linked to its name, which fails when the name is taken).
 * Returns false when the file already existed.
 */
export function writeNewFile(file: string, content: string): boolean {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.tmp-${randomBytes(6).toString('hex')}`);
  fs.writeFileSync(temp, content, { flag: 'wx' });
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // File systems without hard links (FAT, some network shares): exclusive create instead.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') return writeExclusive(file, content);
    throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function writeExclusive(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    fs.writeFileSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}
