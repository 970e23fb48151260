/**
 * Reading process logs while they grow: from an offset (a `resources_watch`-style cursor, or an
 * editor tab that follows a live log), or the last lines. Reads stop at the last complete line,
 * so a line being written is picked up by the next read, never half.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Disposable } from '../core/emitter';
import { openOwnFile } from '../core/files/confinedPath';
import type { LogEntry, LogReaderPort, LogSlice } from '../core/ports/processes';
import { parseEntry } from './logFile';

const defaultMaxBytes = 256 * 1024;
const blockSize = 64 * 1024;

function parseLines(text: string): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const line of text.split('\n')) {
    const entry = line ? parseEntry(line) : null;
    if (entry) entries.push(entry);
  }
  return entries;
}

/** Complete entries from `offset`, about `maxBytes` of them (more if one line is longer). */
export async function readLog(
  logFile: string,
  options: { offset?: number; maxBytes?: number } = {},
): Promise<LogSlice> {
  const offset = Math.max(0, options.offset ?? 0);
  const maxBytes = Math.max(1024, options.maxBytes ?? defaultMaxBytes);
  let handle: fs.promises.FileHandle;
  try {
    handle = await openOwnFile(path.dirname(logFile), logFile, fs.constants.O_RDONLY);
  } catch (ex) {
    if ((ex as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], nextOffset: offset, size: 0 };
    throw ex;
  }
  try {
    const size = (await handle.stat()).size;
    let end = Math.min(size, offset + maxBytes);
    for (;;) {
      if (end <= offset) return { entries: [], nextOffset: offset, size };
      const buffer = Buffer.alloc(end - offset);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      const lastNewline = buffer.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (lastNewline >= 0) {
        return {
          entries: parseLines(buffer.subarray(0, lastNewline).toString('utf8')),
          nextOffset: offset + lastNewline + 1,
          size,
        };
      }
      // One line longer than maxBytes: read further, or wait for its newline.
      if (end >= size) return { entries: [], nextOffset: offset, size };
      end = Math.min(size, end + maxBytes);
    }
  } finally {
    await handle.close();
  }
}

/** The last `lines` complete entries. */
export async function tailLog(logFile: string, lines: number): Promise<LogEntry[]> {
  if (lines <= 0) return [];
  let handle: fs.promises.FileHandle;
  try {
    handle = await openOwnFile(path.dirname(logFile), logFile, fs.constants.O_RDONLY);
  } catch (ex) {
    if ((ex as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw ex;
  }
  try {
    const size = (await handle.stat()).size;
    let start = size;
    let chunks: Buffer[] = [];
    let newlines = 0;
    // Read backwards until enough lines (one more newline than lines: the first may be partial).
    while (start > 0 && newlines <= lines) {
      const from = Math.max(0, start - blockSize);
      const buffer = Buffer.alloc(start - from);
      await handle.read(buffer, 0, buffer.length, from);
      for (const byte of buffer) if (byte === 0x0a) newlines++;
      chunks = [buffer, ...chunks];
      start = from;
    }
    let text = Buffer.concat(chunks).toString('utf8');
    text = text.slice(0, text.lastIndexOf('\n') + 1);
    if (start > 0) text = text.slice(text.indexOf('\n') + 1);
    return parseLines(text).slice(-lines);
  } finally {
    await handle.close();
  }
}

/**
 * Calls `listener` with new entries as the log grows, from `offset` on (polling its size, which
 * works the same on every platform and file system, unlike fs.watch).
 */
export function followLog(
  logFile: string,
  listener: (entries: LogEntry[]) => void,
  options: { offset?: number; intervalMs?: number } = {},
): Disposable {
  let offset = options.offset ?? 0;
  let busy = false;
  let disposed = false;
  const poll = async () => {
    if (busy || disposed) return;
    busy = true;
    try {
      for (;;) {
        const slice = await readLog(logFile, { offset });
        offset = slice.nextOffset;
        if (slice.entries.length > 0 && !disposed) listener(slice.entries);
        if (slice.nextOffset >= slice.size || slice.entries.length === 0) break;
      }
    } catch {
      // The file is gone or unreadable for now: try again next time.
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void poll(), options.intervalMs ?? 250);
  void poll();
  return {
    dispose: () => {
      disposed = true;
      clearInterval(timer);
    },
  };
}

/** The log reader as the domain sees it. */
export const logReader: LogReaderPort = { read: readLog, tail: tailLog, follow: followLog };
