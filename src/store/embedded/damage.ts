import * as fs from 'node:fs';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { StoreError } from '../errors';

/**
 * What the store does when it finds damage: keep a copy of the damaged file beside it (once per
 * distinct content, however many processes or reads notice), and refuse with one coded error
 * that says where the damage is and what to run.
 */

/** `<file>.damaged-<UTC time>`: the copies `db check` lists and `db repair` leaves in place. */
export function damagedCopyName(file: string, at = new Date()): string {
  return `${file}.damaged-${at.toISOString().replace(/[-:]/g, '')}`;
}

/** The copies of `file` kept so far, oldest first. */
export function damagedCopies(file: string): string[] {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.damaged-`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(prefix))
    .sort()
    .map((n) => path.join(dir, n));
}

/**
 * Copies `file` to `<file>.damaged-<time>` unless a copy with the same content exists; returns
 * the copy's path (undefined when the file is gone or the copy could not be written).
 */
export function keepDamagedCopy(file: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  const sum = crc32(bytes);
  for (const copy of damagedCopies(file).reverse()) {
    try {
      if (fs.statSync(copy).size === bytes.length && crc32(fs.readFileSync(copy)) === sum) return copy;
    } catch {
      /* removed meanwhile */
    }
  }
  const copy = damagedCopyName(file);
  try {
    fs.writeFileSync(copy, bytes, { flag: 'wx' });
    return copy;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return copy;
    console.error(`[agent-ledger] could not keep a copy of the damaged ${file}:`, err);
    return undefined;
  }
}

/** The error every read and write gets while the store is damaged. */
export function damagedError(file: string, problem: string, copy: string | undefined): StoreError {
  const kept = copy ? ` A copy is kept as ${path.basename(copy)}.` : '';
  return new StoreError(
    'damaged',
    `the ledger is damaged: ${path.basename(file)}: ${problem}. Reads and writes are stopped and nothing was cut off.${kept} Run \`agent-ledger db check\` to see what is intact and \`agent-ledger db repair\` to salvage it.`,
  );
}

/** Blocks for `ms` (a lockless reader re-reads once before calling a half-written header damage). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
