import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes, randomInt } from 'node:crypto';
import type { SqlJsStatic } from 'sql.js';
import { fsyncDir } from '../../core/files/durableWrite';
import { keepDamagedCopy } from '../embedded/damage';
import { StoreError } from '../errors';
import { encodeImage } from '../embedded/imageFile';
import { encodeHeader } from '../embedded/journal';
import { FileLock } from '../embedded/lock';
import { latestVersion, migrate } from '../migrations';
import { replayExactly } from '../embedded/outcomes';
import { planRecovery } from './recoveryPlan';
import type { RecoveryPlan, StoreFiles } from './recoveryPlan';
import { SqlSession } from '../embedded/sqlSession';
import { loadSqlJs } from '../embedded/sqlJs';
import { seqRanges } from './storeAnalysis';
import type { SeqRange } from './storeAnalysis';
import { analyzeFiles, checkReport } from './storeCheck';
import type { CheckReport } from './storeCheck';
import { storePaths } from '../embedded/storePaths';
import type { StorePaths } from '../embedded/storePaths';

/** The result of `agent-ledger db repair`. */
export interface RepairReport {
  /** False when nothing needed repairing (then no file was touched). */
  repaired: boolean;
  /** The check made under the lock, before repairing. */
  before: CheckReport;
  /** Records replayed into the rebuilt store. */
  recovered: { records: number; seqs: SeqRange[] };
  /** Sequence numbers no intact file held. */
  lost: SeqRange[];
  /** Intact records that could not be replayed because they depended on lost ones. */
  unrecoverable: { seq: number; reason: string }[];
  /** The rebuilt image's seq: above every seq ever used, so every running process reloads it. */
  seq: number;
  /** Copies of the damaged files, kept beside them. */
  copies: string[];
}

/**
 * `db repair`, under the store's lock: keeps a copy of every damaged file, rebuilds the database
 * from the best base (see planRecovery) by replaying every intact record in seq order — records
 * after lost ones replay exactly (same rowids, same row counts) or are reported — and writes it
 * as a new image with an empty journal of a new generation, plus the same pair as the previous
 * generation. Running processes notice the new generation and reload. Never touches a healthy
 * store.
 */
export async function repairStore(dbPath: string, options: { lockTimeoutMs?: number } = {}): Promise<RepairReport> {
  const paths = storePaths(dbPath);
  const SQL = await loadSqlJs();
  if (![paths.image, paths.journal, paths.prevImage, paths.prevJournal].some((f) => fs.existsSync(f))) {
    // No ledger here: nothing to repair, and no lock file to create.
    const files = analyzeFiles(paths, SQL);
    const plan = planRecovery(files);
    return {
      repaired: false,
      before: checkReport(paths, files, plan),
      recovered: { records: 0, seqs: [] },
      lost: [],
      unrecoverable: [],
      seq: 0,
      copies: [],
    };
  }
  const lock = new FileLock(paths.lock, { timeoutMs: options.lockTimeoutMs });
  await lock.acquire();
  try {
    const files = analyzeFiles(paths, SQL);
    const plan = planRecovery(files);
    const before = checkReport(paths, files, plan);
    if (!plan.needed)
      return {
        repaired: false,
        before,
        recovered: { records: 0, seqs: [] },
        lost: [],
        unrecoverable: [],
        seq: plan.maxSeq,
        copies: before.copies,
      };
    const copies = keepCopies(paths, files);
    const seq = plan.maxSeq + 1;
    const { database, applied, unrecoverable } = rebuild(SQL, plan, seq);
    writeRepaired(paths, database, seq, files.journal.header.generation);
    return {
      repaired: true,
      before,
      recovered: { records: applied.length, seqs: seqRanges(applied) },
      lost: plan.lost,
      unrecoverable,
      seq,
      copies,
    };
  } finally {
    lock.release();
  }
}

function keepCopies(paths: StorePaths, files: StoreFiles): string[] {
  const damaged: [string, { status: string }][] = [
    [paths.image, files.image],
    [paths.journal, files.journal],
    [paths.prevImage, files.prevImage],
    [paths.prevJournal, files.prevJournal],
  ];
  return damaged.filter(([, f]) => f.status === 'damaged').flatMap(([file]) => keepDamagedCopy(file) ?? []);
}

/** Replays the plan into a new in-memory database (each record in its own transaction) and exports it at `seq`. */
function rebuild(
  SQL: SqlJsStatic,
  plan: RecoveryPlan,
  seq: number,
): { database: Uint8Array; applied: number[]; unrecoverable: RepairReport['unrecoverable'] } {
  const session = SqlSession.load(SQL, plan.base.database, `the ${plan.base.source} base`);
  try {
    if (plan.base.source === 'fresh')
      session.transaction(() => migrate((sql) => session.exec(sql), session.userVersion()));
    const applied: number[] = [];
    const unrecoverable: RepairReport['unrecoverable'] = [];
    for (const record of plan.records) {
      try {
        session.transaction(() => replayExactly(session, record));
        applied.push(record.seq);
      } catch (err) {
        unrecoverable.push({ seq: record.seq, reason: (err as Error).message });
      }
    }
    const version = session.userVersion();
    if (version > latestVersion)
      throw new StoreError(
        'tooNew',
        `the ledger was written by a newer Agent Ledger (schema v${version}); repair it with that version`,
      );
    return { database: session.export(seq), applied, unrecoverable };
  } finally {
    session.close();
  }
}

/**
 * The rebuilt store on disk: each file written to a temp file and fsynced, then renamed in
 * order — previous pair, image, journal last (a reader that sees the new generation finds the
 * image that goes with it, as after a checkpoint) — and the folder fsynced once. A crash in
 * between leaves damage that a second repair resolves (the previous pair already holds the result).
 */
function writeRepaired(paths: StorePaths, database: Uint8Array, seq: number, oldGeneration: number | undefined): void {
  const image = encodeImage(database);
  const generation = oldGeneration !== undefined ? (oldGeneration + 1) >>> 0 || 1 : randomInt(1, 0xffffffff);
  const journal = encodeHeader({ generation, baseSeq: seq });
  const files: [string, Buffer][] = [
    [paths.prevImage, image],
    [paths.prevJournal, journal],
    [paths.image, image],
    [paths.journal, journal],
  ];
  const temps = files.map(([file, bytes]) => writeTemp(file, bytes));
  files.forEach(([file], i) => fs.renameSync(temps[i], file));
  fsyncDir(path.dirname(paths.image));
}

function writeTemp(file: string, bytes: Buffer): string {
  const tmp = `${file}.tmp-${randomBytes(6).toString('hex')}`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeFileSync(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return tmp;
}
