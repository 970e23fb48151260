import * as path from 'node:path';
import type { CheckReport, RepairReport } from '../../app/storeAdmin';
import { style } from '../output';

type JournalReport = CheckReport['journal'];
type ImageReport = CheckReport['image'];
interface Range {
  from: number;
  to: number;
}

/** The text of `db check`. */
export function formatCheck(r: CheckReport): string[] {
  if (!r.exists) return [`No ledger at ${shown(r.ledger)} yet: nothing to check.`];
  const lines = [r.ok ? style.green('The ledger is intact.') : style.red('The ledger is damaged.'), ''];
  lines.push(...imageLines('image', r.image), ...journalLines('journal', r.journal));
  if (r.previous.image.status !== 'missing' || r.previous.journal.status !== 'missing') {
    lines.push(
      ...imageLines('previous image', r.previous.image),
      ...journalLines('previous journal', r.previous.journal),
    );
  }
  if (r.repair.needed) {
    lines.push(
      '',
      `${style.bold('lost')}      ${r.repair.lost.length ? `seq ${ranges(r.repair.lost)} (no intact copy holds them)` : 'nothing: every record has an intact copy'}`,
    );
    lines.push(
      `${style.bold('repair')}    would rebuild from ${baseName(r.repair.base, r.repair.baseSeq)}${r.repair.replays.length ? ` and replay seq ${ranges(r.repair.replays)}` : ''}: run \`agent-ledger db repair\``,
    );
  }
  if (r.copies.length) lines.push(`${style.bold('copies')}    ${r.copies.map(shown).join(', ')}`);
  return lines;
}

/** The text of `db repair`. */
export function formatRepair(r: RepairReport): string[] {
  if (!r.repaired) {
    const torn = r.before.journal.tornTail;
    return [
      r.before.exists
        ? `Nothing to repair: the ledger at ${shown(r.before.ledger)} is intact.`
        : `No ledger at ${shown(r.before.ledger)}: nothing to repair.`,
      ...(torn ? [tornLine(torn)] : []),
    ];
  }
  const lines = [style.green(`Repaired ${shown(r.before.ledger)}`), ''];
  lines.push(
    `${style.bold('recovered')}      ${r.recovered.records} record(s)${r.recovered.seqs.length ? ` (seq ${ranges(r.recovered.seqs)})` : ''} onto ${baseName(r.before.repair.base, r.before.repair.baseSeq)}`,
  );
  lines.push(
    `${style.bold('lost')}           ${r.lost.length ? style.red(`seq ${ranges(r.lost)}: no intact copy held them`) : 'nothing'}`,
  );
  const bytes = [...r.before.journal.damagedBytes];
  if (bytes.length)
    lines.push(`${style.bold('damaged bytes')}  ${bytes.map(byteRange).join(', ')} of ${shown(r.before.journal.file)}`);
  for (const u of r.unrecoverable)
    lines.push(
      `${style.bold('not replayed')}   ${style.red(`seq ${u.seq}`)}: ${u.reason} (it depended on a lost record)`,
    );
  if (r.before.image.status === 'damaged')
    lines.push(`${style.bold('image')}          was damaged (${r.before.image.problem}); rebuilt`);
  if (r.copies.length) lines.push(`${style.bold('copies kept')}    ${r.copies.map(shown).join(', ')}`);
  lines.push(
    style.dim(`The store now starts at seq ${r.seq}; running servers and editors reload it on their next read.`),
  );
  return lines;
}

function imageLines(label: string, i: ImageReport): string[] {
  const what =
    i.status === 'missing'
      ? 'missing'
      : i.status === 'damaged'
        ? style.red(`damaged: ${i.problem}`)
        : `${i.status === 'legacy' ? 'ok (written before images were checksummed; SQLite’s check passes)' : 'ok'}, holds seq ≤ ${i.seq}, ${i.bytes} bytes`;
  return [`${style.bold(label.padEnd(17))} ${what}`];
}

function journalLines(label: string, j: JournalReport): string[] {
  if (j.status === 'missing') return [`${style.bold(label.padEnd(17))} missing`];
  const state =
    j.status === 'damaged'
      ? style.red('damaged')
      : j.status === 'tornTail'
        ? style.yellow('ok, with a torn tail')
        : 'ok';
  const lines = [`${style.bold(label.padEnd(17))} ${state}, ${j.bytes} bytes`];
  lines.push(
    `  intact          ${j.intact.records} record(s)${j.intact.seqs.length ? ` (seq ${ranges(j.intact.seqs)})` : ''}, ${j.intact.bytes} bytes`,
  );
  if (j.status === 'damaged') {
    if (j.damagedBytes.length) lines.push(`  damaged bytes   ${j.damagedBytes.map(byteRange).join(', ')}`);
    for (const p of j.problems) lines.push(`  ${style.red('•')} ${p}`);
  }
  if (j.tornTail) lines.push(`  ${tornLine(j.tornTail)}`);
  return lines;
}

function tornLine(t: { offset: number; length: number; seq?: number }): string {
  const seq = t.seq !== undefined ? `; it held seq ${t.seq}, which is lost if its write was acknowledged` : '';
  return `torn tail: ${t.length} byte(s) at byte ${t.offset}, an append cut short by a crash; the next write drops it${seq}`;
}

function baseName(base: string, seq: number): string {
  switch (base) {
    case 'image':
      return `the image (seq ${seq})`;
    case 'previousImage':
      return `the previous image (seq ${seq})`;
    case 'empty':
      return 'an empty database';
    default:
      return 'a fresh schema (nothing holds the start of the ledger)';
  }
}

function ranges(rs: Range[]): string {
  return rs.map((r) => (r.from === r.to ? `${r.from}` : `${r.from}–${r.to}`)).join(', ');
}

function byteRange(b: { offset: number; length: number }): string {
  return `${b.offset}–${b.offset + b.length - 1} (${b.length} bytes)`;
}

function shown(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}
