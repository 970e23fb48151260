import * as fs from 'node:fs';
import { crc32 } from 'node:zlib';
import type { SqlParams } from '../core/ports';

/**
 * The journal file: a fixed header, then one framed record per committed write.
 *
 *   header  "ALJ1" | version u32 | generation u32 | baseSeq u64 | 12 bytes reserved
 *   record  length u32 | crc32(seq ‖ payload) u32 | seq u64 | payload (UTF-8 JSON)
 *
 * A record is valid only when complete and its checksum matches, so a writer killed in
 * the middle of an append leaves a tail that readers ignore and the next writer cuts off.
 * `generation` changes every time a checkpoint replaces the journal; `baseSeq` is the
 * image's sequence number at that point (records in this file all have seq > baseSeq).
 */
export const HEADER_SIZE = 32;
const RECORD_HEAD = 16;
const MAGIC = 'ALJ1';
const VERSION = 1;

export interface JournalHeader {
  generation: number;
  baseSeq: number;
}

/** One statement a write executed, with its bound values. */
export type Statement = [sql: string, params?: SqlParams];

export interface JournalRecord {
  seq: number;
  statements: Statement[];
}

export interface ReadResult {
  records: JournalRecord[];
  /** Offset just past the last valid record. */
  end: number;
  /** True when bytes follow `end` that do not form a valid record (a torn or in-flight append). */
  trailing: boolean;
}

export function encodeHeader(h: JournalHeader): Buffer {
  const buf = Buffer.alloc(HEADER_SIZE);
  buf.write(MAGIC, 0, 'ascii');
  buf.writeUInt32LE(VERSION, 4);
  buf.writeUInt32LE(h.generation >>> 0, 8);
  buf.writeBigUInt64LE(BigInt(h.baseSeq), 12);
  return buf;
}

export function decodeHeader(buf: Buffer): JournalHeader | undefined {
  if (buf.length < HEADER_SIZE || buf.toString('ascii', 0, 4) !== MAGIC) return undefined;
  if (buf.readUInt32LE(4) !== VERSION) return undefined;
  return { generation: buf.readUInt32LE(8), baseSeq: Number(buf.readBigUInt64LE(12)) };
}

export function encodeRecord(record: JournalRecord): Buffer {
  const payload = Buffer.from(JSON.stringify({ s: record.statements }), 'utf8');
  const buf = Buffer.alloc(RECORD_HEAD + payload.length);
  buf.writeUInt32LE(payload.length, 0);
  buf.writeBigUInt64LE(BigInt(record.seq), 8);
  payload.copy(buf, RECORD_HEAD);
  buf.writeUInt32LE(crc32(buf.subarray(8)), 4);
  return buf;
}

/** Parses the valid records in `buf`, which starts at file offset `offset`. */
export function decodeRecords(buf: Buffer, offset: number): ReadResult {
  const records: JournalRecord[] = [];
  let pos = 0;
  while (pos + RECORD_HEAD <= buf.length) {
    const length = buf.readUInt32LE(pos);
    const end = pos + RECORD_HEAD + length;
    if (end > buf.length) break;
    if (buf.readUInt32LE(pos + 4) !== crc32(buf.subarray(pos + 8, end))) break;
    let statements: Statement[];
    try {
      statements = (JSON.parse(buf.toString('utf8', pos + RECORD_HEAD, end)) as { s: Statement[] }).s;
    } catch {
      break;
    }
    records.push({ seq: Number(buf.readBigUInt64LE(pos + 8)), statements });
    pos = end;
  }
  return { records, end: offset + pos, trailing: pos < buf.length };
}

/** Reads a journal's header; undefined when the file is too short or not a journal. */
export function readHeader(fd: number): JournalHeader | undefined {
  const buf = Buffer.alloc(HEADER_SIZE);
  const n = fs.readSync(fd, buf, 0, HEADER_SIZE, 0);
  return n === HEADER_SIZE ? decodeHeader(buf) : undefined;
}

/** Reads the valid records from offset `from` (≥ HEADER_SIZE) to the end of an open journal. */
export function readRecords(fd: number, from: number): ReadResult {
  const start = Math.max(from, HEADER_SIZE);
  const size = fs.fstatSync(fd).size;
  if (size <= start) return { records: [], end: start, trailing: false };
  const buf = Buffer.alloc(size - start);
  let read = 0;
  while (read < buf.length) {
    const n = fs.readSync(fd, buf, read, buf.length - read, start + read);
    if (n === 0) break;
    read += n;
  }
  return decodeRecords(buf.subarray(0, read), start);
}
