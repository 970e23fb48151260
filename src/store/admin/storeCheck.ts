import type { SqlJsStatic } from 'sql.js';
import { damagedCopies } from '../embedded/damage';
import { loadSqlJs } from '../embedded/sqlJs';
import { analyzeImage, analyzeJournal, seqRanges } from './storeAnalysis';
import type { ImageAnalysis, JournalAnalysis, SeqRange } from './storeAnalysis';
import type { ByteRange } from '../embedded/journalScan';
import { planRecovery } from './recoveryPlan';
import type { BaseSource, RecoveryPlan, StoreFiles } from './recoveryPlan';
import { storePaths } from '../embedded/storePaths';
import type { StorePaths } from '../embedded/storePaths';

/** An image as `db check` reports it. */
export interface ImageReport {
  file: string;
  status: ImageAnalysis['status'];
  bytes: number;
  seq?: number;
  schemaVersion?: number;
  problem?: string;
}

/** A journal as `db check` reports it: what is intact and what is not. */
export interface JournalReport {
  file: string;
  status: JournalAnalysis['status'];
  bytes: number;
  header: JournalAnalysis['header'];
  intact: { records: number; seqs: SeqRange[]; bytes: number };
  damagedBytes: ByteRange[];
  tornTail?: JournalAnalysis['tornTail'];
  problems: string[];
}

/** The result of `agent-ledger db check` (and the `before` of a repair). */
export interface CheckReport {
  ledger: string;
  /** False when there is no ledger here at all. */
  exists: boolean;
  /** Nothing is damaged (a torn tail alone is fine: the next write drops it). */
  ok: boolean;
  image: ImageReport;
  journal: JournalReport;
  /** The pair the last checkpoint kept, from which a damaged image is rebuilt. */
  previous: { image: ImageReport; journal: JournalReport };
  /** What `db repair` would do. */
  repair: {
    needed: boolean;
    base: BaseSource;
    baseSeq: number;
    replays: SeqRange[];
    lost: SeqRange[];
    highestSeq: number;
  };
  /** Copies of damaged files kept so far (`<file>.damaged-<time>`). */
  copies: string[];
}

/** Reads every file of the store, changing none of them. */
export function analyzeFiles(paths: StorePaths, SQL: SqlJsStatic): StoreFiles {
  return {
    image: analyzeImage(paths.image, SQL),
    journal: analyzeJournal(paths.journal),
    prevImage: analyzeImage(paths.prevImage, SQL),
    prevJournal: analyzeJournal(paths.prevJournal),
  };
}

/** `db check`: what is intact, what is lost, and what a repair would do. Read-only. */
export async function checkStore(dbPath: string): Promise<CheckReport> {
  const paths = storePaths(dbPath);
  const files = analyzeFiles(paths, await loadSqlJs());
  return checkReport(paths, files, planRecovery(files));
}

export function checkReport(paths: StorePaths, files: StoreFiles, plan: RecoveryPlan): CheckReport {
  const exists = files.image.status !== 'missing' || files.journal.status !== 'missing';
  return {
    ledger: paths.image,
    exists,
    ok: !plan.needed,
    image: imageReport(files.image),
    journal: journalReport(files.journal),
    previous: { image: imageReport(files.prevImage), journal: journalReport(files.prevJournal) },
    repair: {
      needed: plan.needed,
      base: plan.base.source,
      baseSeq: plan.base.seq,
      replays: seqRanges(plan.records.map((r) => r.seq)),
      lost: plan.lost,
      highestSeq: plan.maxSeq,
    },
    copies: [paths.image, paths.journal, paths.prevImage, paths.prevJournal].flatMap(damagedCopies),
  };
}

function imageReport(a: ImageAnalysis): ImageReport {
  const { database: _database, ...report } = a;
  return report;
}

function journalReport(a: JournalAnalysis): JournalReport {
  return {
    file: a.file,
    status: a.status,
    bytes: a.bytes,
    header: a.header,
    intact: { records: a.records.length, seqs: seqRanges(a.records.map((r) => r.record.seq)), bytes: a.intactBytes },
    damagedBytes: a.damagedBytes,
    ...(a.tornTail ? { tornTail: a.tornTail } : {}),
    problems: a.problems,
  };
}
