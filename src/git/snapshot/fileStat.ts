/**
 * A file's status, or null when it cannot be looked at (absent, or any other error): the
 * synchronous calls snapshots make on small metadata (looseObject.ts says why synchronous).
 */
import { lstatSync, statSync } from 'node:fs';
import type { PathLike, Stats } from 'node:fs';

/** `stat` (symlinks followed), or null. */
export function statOrNull(file: PathLike): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

/** `lstat` (a symlink itself), or null. */
export function lstatOrNull(file: PathLike): Stats | null {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}
