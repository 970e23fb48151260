import * as fs from 'node:fs';
import { crc32 } from 'node:zlib';
import type { SqlParams } from '../../core/ports/store';

/**
 * The journal file: a fixed header, then one framed record per committed write.
 *
 *   header  "ALJ1" | version u32 = 1 | generation u32 | baseSeq u64 | lastSeq u64 | crc32(bytes 0–27) u32
 *   record  length u32 | crc32(seq ‖ payload) u32 | seq u64 | payload (UTF-8 JSON)
 *
 * A record is valid only when complete and its checksum matches, so a writer killed in the
 * middle of an append leaves a tail that readers ignore and the next writer cuts off.
 * `generation` changes every time a checkpoint replaces the journal; `baseSeq` is the image's
 * sequence number at that point (records in this file are baseSeq+1, baseSeq+2, … in order).
 * `lastSeq` is the highest record appended so far: the header is rewritten (in the same
 * fdatasync) after each append, so a reader can tell a torn last record (at most one missing)
 * from damage that ate several. Headers written before lastSeq existed have 12 zero bytes there
 * ("legacy"): they still open, and the next append upgrades them in place. The layout of a
 * record did not change, so older builds still read and write this journal.
 */
export const HEADER_SIZE = 32;
export const RECORD_HEAD = 16;
const MAGIC = 'ALJ1';
const VERSION = 1;

export interface JournalHeader {
  generation: number;
  baseSeq: number;
  /** Highest seq appended to this file; undefined in a legacy header. */
  lastSeq?: number;
}

export type HeaderRead = { ok: true; header: JournalHeader; legacy: boolean } | { ok: false; problem: string };

/** One statement a write executed, with its bound values. */
export type Statement = [sql: string, params?: SqlParams];

/**
 * What a data-changing statement did when it was first run: rows changed, and for a plain
 * INSERT the rowid it got. Repair uses these to replay records after lost ones exactly (same
 * ids) or to report them; ordinary replay is deterministic and ignores them.
 */
export type Outcome = [changes: number, rowid?: number] | null;

export interface JournalRecord {
  seq: number;
  statements: Statement[];
  /** Aligned with `statements`; absent in records written before outcomes were kept. */
  outcomes?: Outcome[];
}

export function encodeHeader(h: JournalHeader): Buffer {
  const buf = Buffer.alloc(HEADER_SIZE);
  buf.write(MAGIC, 0, 'ascii');
  buf.writeUInt32LE(VERSION, 4);
  buf.writeUInt32LE(h.generation >>> 0, 8);
  buf.writeBigUInt64LE(BigInt(h.baseSeq), 12);
  buf.writeBigUInt64LE(BigInt(h.lastSeq ?? h.baseSeq), 20);
  buf.writeUInt32LE(crc32(buf.subarray(0, 28)), 28);
  return buf;
}

export function decodeHeader(buf: Buffer): HeaderRead {
  if (buf.length < HEADER_SIZE)
    return { ok: false, problem: `the header is incomplete (${buf.length} of ${HEADER_SIZE} bytes)` };
  if (buf.toString('ascii', 0, 4) !== MAGIC) return { ok: false, problem: 'the header does not start with ALJ1' };
  if (buf.readUInt32LE(4) !== VERSION) return { ok: false, problem: `unknown journal version ${buf.readUInt32LE(4)}` };
  const generation = buf.readUInt32LE(8);
  const baseSeq = Number(buf.readBigUInt64LE(12));
  const legacy = buf.subarray(20, 32).every((b) => b === 0);
  if (legacy) return { ok: true, header: { generation, baseSeq }, legacy };
  if (buf.readUInt32LE(28) !== crc32(buf.subarray(0, 28)))
    return { ok: false, problem: 'the header checksum does not match' };
  const lastSeq = Number(buf.readBigUInt64LE(20));
  if (lastSeq < baseSeq) return { ok: false, problem: `the header's last seq ${lastSeq} is below its base ${baseSeq}` };
  return { ok: true, header: { generation, baseSeq, lastSeq }, legacy };
}

export function encodeRecord(record: JournalRecord): Buffer {
  const body: { s: Statement[]; o?: Outcome[] } = { s: record.statements };
  if (record.outcomes?.some((o) => o !== null)) body.o = record.outcomes;
  const payload = Buffer.from(JSON.stringify(body), 'utf8');
  const buf = Buffer.alloc(RECORD_HEAD + payload.length);
  buf.writeUInt32LE(payload.length, 0);
  buf.writeBigUInt64LE(BigInt(record.seq), 8);
  payload.copy(buf, RECORD_HEAD);
  buf.writeUInt32LE(crc32(buf.subarray(8)), 4);
  return buf;
}

/** A record found at an offset of a buffer, and its size in bytes. */
export interface Frame {
  record: JournalRecord;
  size: number;
}

/**
 * The record that starts at `pos` of `buf`, or undefined when the bytes there are not a
 * complete, checksummed, parseable record. `maxSeq` rejects implausible sequence numbers before
 * paying for a checksum (resynchronising scans try every offset).
 */
export function frameAt(buf: Buffer, pos: number, maxSeq = Number.MAX_SAFE_INTEGER): Frame | undefined {
  if (pos + RECORD_HEAD >= buf.length) return undefined;
  // A payload is JSON text starting with '{': the cheapest filter for resynchronising scans.
  if (buf[pos + RECORD_HEAD] !== 0x7b) return undefined;
  const length = buf.readUInt32LE(pos);
  const end = pos + RECORD_HEAD + length;
  if (length < 2 || end > buf.length) return undefined;
  const high = buf.readUInt32LE(pos + 12);
  if (high >= 0x200000) return undefined; // not a safe integer
  const seq = high * 0x1_0000_0000 + buf.readUInt32LE(pos + 8);
  if (seq < 1 || seq > maxSeq) return undefined;
  if (buf.readUInt32LE(pos + 4) !== crc32(buf.subarray(pos + 8, end))) return undefined;
  let body: { s?: unknown; o?: unknown };
  try {
    body = JSON.parse(buf.toString('utf8', pos + RECORD_HEAD, end)) as typeof body;
  } catch {
    return undefined;
  }
  if (!Array.isArray(body.s)) return undefined;
  const record: JournalRecord = { seq, statements: body.s as Statement[] };
  if (Array.isArray(body.o)) record.outcomes = body.o as Outcome[];
  return { record, size: RECORD_HEAD + length };
}

/** The whole file through an open descriptor, header included (reads past a short read). */
export function readAll(fd: number, from = 0): Buffer {
  const size = fs.fstatSync(fd).size;
  const buf = Buffer.alloc(Math.max(0, size - from));
  let read = 0;
  while (read < buf.length) {
    const n = fs.readSync(fd, buf, read, buf.length - read, from + read);
    if (n === 0) break;
    read += n;
  }
  return buf.subarray(0, read);
}

/** Reads a journal's header. */
export function readHeader(fd: number): HeaderRead {
  const buf = Buffer.alloc(HEADER_SIZE);
  const n = fs.readSync(fd, buf, 0, HEADER_SIZE, 0);
  return decodeHeader(buf.subarray(0, n));
}
