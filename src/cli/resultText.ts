import YAML from 'yaml';
import { style, table } from './output';
import { visible, visibleBlock } from './terminalText';

/**
 * Human output of tool-backed commands that have no formatter of their own: the result as
 * indented YAML (strings with control characters come out quoted and escaped, and whatever is
 * left is shown inert by `visibleBlock`), so every field a tool returns is readable.
 */
export function resultLines(result: unknown): string[] {
  if (result === undefined || result === null) return [];
  return [visibleBlock(YAML.stringify(result, { lineWidth: 0, aliasDuplicateObjects: false }).trimEnd())];
}

/** A value on one line: text as is, anything else as compact JSON, inert either way. */
export function inline(value: unknown, max = 80): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
  return visible(text.length > max ? `${text.slice(0, max - 1)}…` : text);
}

/** A table with dimmed headings, or `empty` when there are no rows. */
export function headedTable(headings: string[], rows: string[][], empty: string): string[] {
  if (rows.length === 0) return [style.dim(empty)];
  return table([headings.map((h) => style.dim(h)), ...rows]);
}

/** The cursor line of a paged or waiting read: what to pass next time. */
export function nextLine(option: string, value: number | string | null): string {
  return style.dim(value === null ? 'nothing further' : `next: ${option} ${value}`);
}

/** An epoch-ms time as ISO text ("-" for none). */
export function when(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '-' : new Date(ms).toISOString();
}
