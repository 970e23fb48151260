import type { JournalRecord } from '../embedded/journal';
import type { ImageAnalysis, JournalAnalysis, SeqRange } from './storeAnalysis';

/** The four files a repair reads: the image and journal, and the pair the last checkpoint kept. */
export interface StoreFiles {
  image: ImageAnalysis;
  journal: JournalAnalysis;
  prevImage: ImageAnalysis;
  prevJournal: JournalAnalysis;
}

/**
 * Where a rebuild starts: the image, the previous image, an empty database (the journal goes back
 * to seq 1), or a fresh schema when nothing holds the start of the ledger.
 */
export type BaseSource = 'image' | 'previousImage' | 'empty' | 'fresh';

export interface RecoveryPlan {
  /** Whether anything is damaged (a torn tail alone is not). */
  needed: boolean;
  base: { source: BaseSource; seq: number; database?: Buffer };
  /** Intact records after the base, by seq, each once. */
  records: JournalRecord[];
  /** Sequence numbers after the base that no intact file holds (a torn tail's seq is not among them: see the journal's `tornTail`). */
  lost: SeqRange[];
  /** The highest sequence number any file knows of. */
  maxSeq: number;
}

/**
 * Picks the base that loses the fewest records: every intact record of both journals is a
 * candidate to replay, and each usable image (current, previous, or none) a starting point. Ties
 * go to the newest image (least to replay).
 */
export function planRecovery(files: StoreFiles): RecoveryPlan {
  const bySeq = new Map<number, JournalRecord>();
  for (const found of files.prevJournal.records) bySeq.set(found.record.seq, found.record);
  for (const found of files.journal.records) bySeq.set(found.record.seq, found.record); // the current copy wins
  const torn = files.journal.status === 'tornTail' ? files.journal.tornTail?.seq : undefined;
  const maxSeq = Math.max(
    0,
    files.image.seq ?? 0,
    files.prevImage.seq ?? 0,
    files.journal.header.lastSeq ?? 0,
    files.journal.header.baseSeq ?? 0,
    ...bySeq.keys(),
  );

  const candidates: RecoveryPlan['base'][] = [];
  if (files.image.database)
    candidates.push({ source: 'image', seq: files.image.seq ?? 0, database: files.image.database });
  if (files.prevImage.database)
    candidates.push({ source: 'previousImage', seq: files.prevImage.seq ?? 0, database: files.prevImage.database });
  candidates.push({ source: bySeq.has(1) ? 'empty' : 'fresh', seq: 0 });

  let best: { base: RecoveryPlan['base']; lost: SeqRange[]; count: number } | undefined;
  for (const base of candidates) {
    const lost = missingAfter(base.seq, maxSeq, bySeq, torn);
    const count = lost.reduce((n, r) => n + r.to - r.from + 1, 0);
    if (!best || count < best.count) best = { base, lost, count };
  }
  const { base, lost } = best!;
  const records = [...bySeq.values()].filter((r) => r.seq > base.seq).sort((a, b) => a.seq - b.seq);
  const damaged = [files.image, files.journal, files.prevImage, files.prevJournal].some((f) => f.status === 'damaged');
  const needed = damaged || lost.length > 0 || (files.image.status === 'missing' && base.seq > 0);
  return { needed, base, records, lost, maxSeq };
}

/** Seqs in (from, to] that no record holds; the torn tail's seq is left out here (it may never have been acknowledged). */
function missingAfter(
  from: number,
  to: number,
  bySeq: Map<number, JournalRecord>,
  torn: number | undefined,
): SeqRange[] {
  const held = [...bySeq.keys()].filter((s) => s > from).sort((a, b) => a - b);
  const missing: SeqRange[] = [];
  let next = from + 1;
  for (const seq of [...held, to + 1]) {
    if (seq > next) missing.push({ from: next, to: seq - 1 });
    next = Math.max(next, seq + 1);
  }
  return torn === undefined ? missing : missing.flatMap((r) => split(r, torn));
}

function split(r: SeqRange, seq: number): SeqRange[] {
  if (seq < r.from || seq > r.to) return [r];
  return [
    ...(seq > r.from ? [{ from: r.from, to: seq - 1 }] : []),
    ...(seq < r.to ? [{ from: seq + 1, to: r.to }] : []),
  ];
}
