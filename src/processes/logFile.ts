/**
 * The log file format: JSON Lines, one {@link LogEntry} per line, appended as output arrives.
 * One file holds both streams (each entry says which), so a reader tails a single file while it
 * grows and still tells stdout from stderr; a line is written whole by one `write`, so a reader
 * that stops at the last newline never sees half an entry.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openOwnFileSync } from '../core/files/confinedPath';
import type { LogEntry } from '../core/ports/processes';
import type { FramedLine } from './lineFramer';

/** The line of one entry. */
export function encodeEntry(entry: LogEntry): string {
  return `${JSON.stringify(entry)}\n`;
}

/** The entry of one line, or null for a line that is not one (a torn or foreign line). */
export function parseEntry(line: string): LogEntry | null {
  if (!line.startsWith('{')) return null;
  try {
    const value = JSON.parse(line) as Partial<LogEntry>;
    if (typeof value.seq !== 'number' || typeof value.ts !== 'number' || typeof value.message !== 'string') return null;
    if (value.stream !== 'stdout' && value.stream !== 'stderr' && value.stream !== 'meta') return null;
    return value as LogEntry;
  } catch {
    return null;
  }
}

/** Appends entries to one log file. */
export class LogWriter {
  private fd: number | null;
  private seq = 0;

  constructor(readonly file: string) {
    // Never through a link planted at the log's name.
    const { O_WRONLY, O_APPEND, O_CREAT } = fs.constants;
    this.fd = openOwnFileSync(path.dirname(file), file, O_WRONLY | O_APPEND | O_CREAT, 0o600);
  }

  /** Output lines of one stream, written with one system call. */
  lines(stream: 'stdout' | 'stderr', lines: readonly FramedLine[], ts = Date.now()): void {
    if (lines.length === 0) return;
    let text = '';
    for (const line of lines) {
      const entry: LogEntry = { seq: ++this.seq, ts, stream, message: line.text };
      if (!line.eol) entry.eol = false;
      text += encodeEntry(entry);
    }
    this.append(text);
  }

  /** A note of the supervisor (start, limit, exit). `message` must already be redacted. */
  meta(message: string, data?: Record<string, unknown>, ts = Date.now()): void {
    this.append(encodeEntry({ seq: ++this.seq, ts, stream: 'meta', message, ...(data ? { data } : {}) }));
  }

  close(): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
  }

  private append(text: string): void {
    if (this.fd === null) return;
    fs.writeSync(this.fd, text);
  }
}
