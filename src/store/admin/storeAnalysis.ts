import * as fs from 'node:fs';
import type { SqlJsStatic } from 'sql.js';
import { StoreError } from '../errors';
import { readImage } from '../embedded/imageFile';
import { decodeHeader, HEADER_SIZE } from '../embedded/journal';
import { scanRecords } from '../embedded/journalScan';
import type { ByteRange, FoundRecord } from '../embedded/journalScan';
import { SqlSession } from '../embedded/sqlSession';

/** An inclusive range of sequence numbers. */
export interface SeqRange {
  from: number;
  to: number;
}

/** What one image file holds. `database` is the checked bytes, for repair (not part of reports). */
export interface ImageAnalysis {
  file: string;
  status: 'missing' | 'ok' | 'legacy' | 'damaged';
  bytes: number;
  /** The last journal seq the image holds. */
  seq?: number;
  schemaVersion?: number;
  problem?: string;
  database?: Buffer;
}

/** What one journal file holds: every intact record, and every byte range that is not one. */
export interface JournalAnalysis {
  file: string;
  status: 'missing' | 'ok' | 'tornTail' | 'damaged';
  bytes: number;
  header: {
    status: 'missing' | 'ok' | 'legacy' | 'damaged';
    problem?: string;
    generation?: number;
    baseSeq?: number;
    lastSeq?: number;
  };
  records: FoundRecord[];
  /** Bytes that belong to intact records (and an intact header). */
  intactBytes: number;
  /** Byte ranges that hold no intact record (a torn tail included). */
  damagedBytes: ByteRange[];
  /** The incomplete last record a crash mid-append leaves: the next write drops it. */
  tornTail?: ByteRange & { seq?: number };
  /** Sentences saying what is wrong, empty when nothing is. */
  problems: string[];
}

/** Reads and checks an image without changing it. */
export function analyzeImage(file: string, SQL: SqlJsStatic): ImageAnalysis {
  const read = readImage(file);
  if (read.status === 'missing') return { file, status: 'missing', bytes: 0 };
  if (read.status === 'damaged') return { file, status: 'damaged', bytes: read.bytes, problem: read.problem };
  let session: SqlSession | undefined;
  try {
    session = SqlSession.load(SQL, read.database, file);
    // A trailed image is checksummed; a legacy one gets SQLite's structural check instead.
    const problems = read.status === 'legacy' ? session.quickCheck().filter((p) => p !== 'ok') : [];
    if (problems.length)
      return {
        file,
        status: 'damaged',
        bytes: read.bytes,
        problem: `SQLite's check fails: ${problems.slice(0, 3).join('; ')}`,
      };
    return {
      file,
      status: read.status,
      bytes: read.bytes,
      seq: session.imageSeq(),
      schemaVersion: session.userVersion(),
      database: read.database,
    };
  } catch (err) {
    if (!StoreError.is(err, 'damaged')) throw err;
    return { file, status: 'damaged', bytes: read.bytes, problem: err.message };
  } finally {
    session?.close();
  }
}

/** Reads and checks a journal without changing it: intact records, damaged ranges, torn tail. */
export function analyzeJournal(file: string): JournalAnalysis {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return {
      file,
      status: 'missing',
      bytes: 0,
      header: { status: 'missing' },
      records: [],
      intactBytes: 0,
      damagedBytes: [],
      problems: [],
    };
  }
  const problems: string[] = [];
  const read = decodeHeader(buf.subarray(0, HEADER_SIZE));
  const header: JournalAnalysis['header'] = read.ok
    ? { status: read.legacy ? 'legacy' : 'ok', ...read.header }
    : { status: 'damaged', problem: read.problem };
  if (!read.ok) problems.push(`the header is damaged: ${read.problem}`);
  const { records, holes } = scanRecords(buf, header.baseSeq);

  // Records must run baseSeq+1, baseSeq+2, … in file order.
  let prev = header.baseSeq ?? (records.length ? records[0].record.seq - 1 : 0);
  for (const { record, offset } of records) {
    if (record.seq > prev + 1)
      problems.push(
        `seq ${range(prev + 1, record.seq - 1)} ${record.seq - prev > 2 ? 'are' : 'is'} missing before byte ${offset}`,
      );
    if (record.seq <= prev)
      problems.push(`the record at byte ${offset} repeats or goes back to seq ${record.seq} after seq ${prev}`);
    prev = Math.max(prev, record.seq);
  }

  // A bad stretch at the very end, with nothing valid after it, is a torn tail if it is the
  // only problem and the header does not count more than the one record it could be.
  const last = holes[holes.length - 1];
  const atEnd = last && last.offset + last.length === buf.length && !records.some((r) => r.offset > last.offset);
  const lastSeq = header.lastSeq;
  const beyond = lastSeq !== undefined && lastSeq > prev ? lastSeq - prev : 0;
  const inner = holes.filter((h) => h !== last || !atEnd);
  for (const hole of inner)
    problems.push(`bytes ${hole.offset}–${hole.offset + hole.length - 1} hold no intact record`);
  if (beyond > 1)
    problems.push(
      `the header counts records up to seq ${lastSeq}, the last intact one is seq ${prev}: seq ${range(prev + 1, lastSeq!)} are missing`,
    );
  let tornTail: JournalAnalysis['tornTail'];
  if (problems.length) {
    if (atEnd) problems.push(`bytes ${last.offset}–${buf.length - 1} at the end hold no intact record`);
  } else if (atEnd || beyond === 1) {
    tornTail = {
      offset: atEnd ? last.offset : buf.length,
      length: atEnd ? last.length : 0,
      ...(beyond === 1 ? { seq: lastSeq } : {}),
    };
  }
  const intactBytes = records.reduce((n, r) => n + r.size, read.ok ? HEADER_SIZE : 0);
  const status = problems.length ? 'damaged' : tornTail ? 'tornTail' : 'ok';
  return {
    file,
    status,
    bytes: buf.length,
    header,
    records,
    intactBytes,
    damagedBytes: holes,
    ...(tornTail ? { tornTail } : {}),
    problems,
  };
}

/** Sorted, merged ranges of a set of sequence numbers. */
export function seqRanges(seqs: Iterable<number>): SeqRange[] {
  const sorted = [...new Set(seqs)].sort((a, b) => a - b);
  const out: SeqRange[] = [];
  for (const seq of sorted) {
    const tail = out[out.length - 1];
    if (tail && seq === tail.to + 1) tail.to = seq;
    else out.push({ from: seq, to: seq });
  }
  return out;
}

export function range(from: number, to: number): string {
  return from === to ? `${from}` : `${from}–${to}`;
}
