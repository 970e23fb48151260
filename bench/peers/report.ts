// The peer benchmark's output: one table of figures with ratios (peer / ours), the tool each
// operation used per server, printed and written as Markdown to bench/results/peers-<date>.md.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bytes, ms } from '../lib/report';
import type { ServerAdapter } from './adapter';
import { operationLabels } from './adapter';

/** One cell: a number (ms, bytes or a count), text, or nothing (no equivalent: "—"). */
export type Cell = { value: number; unit: 'ms' | 's' | 'bytes' | 'count' } | { text: string } | undefined;

/** One row of the figures table: a figure at a store size, one cell per server key. */
export interface FigureRow {
  figure: string;
  tasks: string;
  cells: Partial<Record<ServerAdapter['key'], Cell>>;
  /** Whether peer / ours makes sense for this row (not for lost-write counts). */
  ratio: boolean;
}

function show(cell: Cell): string {
  if (!cell) return '—';
  if ('text' in cell) return cell.text;
  if (!Number.isFinite(cell.value)) return '—';
  if (cell.unit === 'ms') return cell.value >= 1000 ? `${(cell.value / 1000).toFixed(2)} s` : `${ms(cell.value)} ms`;
  if (cell.unit === 's') return `${cell.value.toFixed(1)} s`;
  if (cell.unit === 'bytes') return bytes(cell.value);
  return String(cell.value);
}

function ratioOf(peer: Cell, ours: Cell): string {
  if (
    !peer ||
    !ours ||
    'text' in peer ||
    'text' in ours ||
    !Number.isFinite(peer.value) ||
    !Number.isFinite(ours.value) ||
    ours.value <= 0
  )
    return '—';
  return `${(peer.value / ours.value).toFixed(peer.value / ours.value >= 10 ? 0 : 1)}×`;
}

/** Renders rows as a Markdown table. */
export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((_, i) => Math.max(3, ...[header, ...rows].map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => (c ?? '').padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** The figures table: servers in `order`, ours last, then one ratio column per peer. */
export function figuresTable(adapters: ServerAdapter[], rows: FigureRow[]): string {
  const peers = adapters.filter((a) => a.key !== 'ours');
  const header = [
    'figure',
    'tasks',
    ...peers.map((a) => a.name),
    'Agent Ledger',
    ...peers.map((a) => `${a.short} / ours`),
  ];
  const body = rows.map((r) => [
    r.figure,
    r.tasks,
    ...peers.map((a) => show(r.cells[a.key])),
    show(r.cells.ours),
    ...peers.map((a) => (r.ratio ? ratioOf(r.cells[a.key], r.cells.ours) : '')),
  ]);
  return markdownTable(header, body);
}

/** Which tool each operation used on each server ("—" where a server has none). */
export function mappingTable(adapters: ServerAdapter[]): string {
  const ordered = [...adapters.filter((a) => a.key !== 'ours'), ...adapters.filter((a) => a.key === 'ours')];
  const ops = Object.keys(operationLabels) as (keyof typeof operationLabels)[];
  return markdownTable(
    ['operation', ...ordered.map((a) => a.name)],
    ops.map((op) => [operationLabels[op], ...ordered.map((a) => a.tools[op] ?? '—')]),
  );
}

/** Writes the report to bench/results/peers-<date>.md and returns its path. */
export function writeReport(markdown: string, date: Date): string {
  const dir = path.resolve(__dirname, '..', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const stamp = date.toISOString().slice(0, 16).replace(':', '');
  const file = path.join(dir, `peers-${stamp}.md`);
  fs.writeFileSync(file, `${markdown}\n`);
  return file;
}
