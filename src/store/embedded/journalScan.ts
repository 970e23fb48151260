import { frameAt, HEADER_SIZE, RECORD_HEAD } from './journal';
import type { JournalRecord } from './journal';

/**
 * Telling a torn tail from damage. A writer appends one record at a time under the lock and
 * fsyncs it before the next, so a crash can only leave the *last* record incomplete or wrong,
 * with nothing valid after it, and at most one record beyond what the header says was appended
 * before. Anything else — a bad record followed by a valid one, a valid record out of sequence,
 * the header counting two or more records that are not there — is damage: never dropped, never
 * cut off.
 */

/** The smallest record: a 16-byte head and `{"s":[]}`. */
const MIN_RECORD = RECORD_HEAD + 8;

/** The records read from a journal buffer in order, and what follows them. */
export interface RunRead {
  /** The consecutive valid records (seq prevSeq+1, prevSeq+2, …). */
  records: JournalRecord[];
  /** File offset just past them. */
  end: number;
  /** Bytes follow `end` that are not a valid next record: a torn or in-flight append. */
  trailing: boolean;
  /** Set when what follows `end` is damage, not a torn tail: a sentence saying what and where. */
  damage?: string;
}

/**
 * Reads the consecutive records of `buf` (which starts at file offset `offset`), the first of
 * which must have seq `prevSeq + 1`, and judges what follows them. `lastSeq` is the header's
 * count of appended records, when it has one.
 */
export function readRun(buf: Buffer, offset: number, prevSeq: number, lastSeq?: number): RunRead {
  const records: JournalRecord[] = [];
  let pos = 0;
  let seq = prevSeq;
  let damage: string | undefined;
  while (pos < buf.length) {
    const frame = frameAt(buf, pos);
    if (!frame) break;
    if (frame.record.seq !== seq + 1) {
      damage = `the record at byte ${offset + pos} has seq ${frame.record.seq} where seq ${seq + 1} belongs`;
      break;
    }
    records.push(frame.record);
    seq = frame.record.seq;
    pos += frame.size;
  }
  const end = offset + pos;
  if (!damage && pos < buf.length) {
    const next = nextFrame(buf, pos + 1, Math.max(seq, lastSeq ?? 0));
    if (next !== undefined) {
      damage = `bytes ${end}–${offset + next.pos - 1} hold no valid record and valid records follow (seq ${next.seq} at byte ${offset + next.pos})`;
    }
  }
  if (!damage && lastSeq !== undefined && lastSeq > seq + 1) {
    damage = `the header counts records up to seq ${lastSeq} but only seq ${seq} is readable: seq ${seq + 1}–${lastSeq} are missing`;
  }
  return { records, end, trailing: pos < buf.length, damage };
}

/**
 * The first valid record at or after `from`, trying every offset (resynchronising after
 * damage). Sequence numbers are bounded by what the bytes left could hold past `aboveSeq`.
 */
export function nextFrame(buf: Buffer, from: number, aboveSeq: number): { pos: number; seq: number } | undefined {
  const maxSeq = aboveSeq + Math.ceil(buf.length / MIN_RECORD) + 1;
  for (let pos = from; pos + MIN_RECORD <= buf.length; pos++) {
    const frame = frameAt(buf, pos, maxSeq);
    if (frame) return { pos, seq: frame.record.seq };
  }
  return undefined;
}

/** A valid record and where it lies in the file. */
export interface FoundRecord {
  record: JournalRecord;
  offset: number;
  size: number;
}

/** A byte range that holds no valid record. */
export interface ByteRange {
  offset: number;
  length: number;
}

/** Every valid record of a whole journal file (header included in `file`), and the bytes between them. */
export interface JournalContents {
  records: FoundRecord[];
  holes: ByteRange[];
}

/**
 * Walks the whole file, resynchronising on the next valid record after each bad stretch.
 * `baseSeq` (the header's, when it is readable) bounds the sequence numbers worth checking.
 */
export function scanRecords(file: Buffer, baseSeq?: number): JournalContents {
  const records: FoundRecord[] = [];
  const holes: ByteRange[] = [];
  let pos = HEADER_SIZE;
  let highest = baseSeq ?? Number.MAX_SAFE_INTEGER / 2;
  while (pos < file.length) {
    const frame = frameAt(file, pos);
    if (frame) {
      records.push({ record: frame.record, offset: pos, size: frame.size });
      highest = Math.max(highest, frame.record.seq);
      pos += frame.size;
      continue;
    }
    const next = nextFrame(file, pos + 1, highest);
    const stop = next?.pos ?? file.length;
    holes.push({ offset: pos, length: stop - pos });
    pos = stop;
  }
  return { records, holes };
}

/**
 * The bytes of the records after `seq` in a whole journal file (header included in `file`) whose
 * header counts records up to `lastSeq`: what a checkpoint that folds everything up to `seq` into
 * the image carries over into the next generation. The records up to `seq` are stepped over by
 * their lengths only (the image that holds them was replayed from them); the ones carried over
 * are checked and must run seq+1 … lastSeq. Undefined when the file does not hold exactly that.
 */
export function recordsAfter(file: Buffer, seq: number, lastSeq: number): Buffer | undefined {
  let pos = HEADER_SIZE;
  while (pos + RECORD_HEAD <= file.length) {
    const high = file.readUInt32LE(pos + 12);
    const recordSeq = high * 0x1_0000_0000 + file.readUInt32LE(pos + 8);
    if (recordSeq > seq) break;
    pos += RECORD_HEAD + file.readUInt32LE(pos);
  }
  if (pos > file.length) return undefined;
  const run = readRun(file.subarray(pos), pos, seq, lastSeq);
  const last = run.records.length ? run.records[run.records.length - 1].seq : seq;
  if (run.damage || last !== lastSeq) return undefined;
  return file.subarray(pos, run.end);
}
