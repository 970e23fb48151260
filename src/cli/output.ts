import { CommanderError } from 'commander';
import { LedgerError, exitCodes } from '../core/errors';
import { StoreError } from '../store/errors';
import { formatDurationCompact } from '../shared/format';

/** Options every command takes. */
export interface CommonOptions {
  workspace?: string;
  db?: string;
  json?: boolean;
}

const useColor = process.stdout.isTTY === true && !process.env.NO_COLOR;

/** ANSI styling that disappears when stdout is not a terminal or NO_COLOR is set. */
export const style = {
  bold: (s: string) => (useColor ? `\x1b[1m${s}\x1b[22m` : s),
  dim: (s: string) => (useColor ? `\x1b[2m${s}\x1b[22m` : s),
  red: (s: string) => (useColor ? `\x1b[31m${s}\x1b[39m` : s),
  green: (s: string) => (useColor ? `\x1b[32m${s}\x1b[39m` : s),
  yellow: (s: string) => (useColor ? `\x1b[33m${s}\x1b[39m` : s),
  cyan: (s: string) => (useColor ? `\x1b[36m${s}\x1b[39m` : s),
};

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLines(lines: string[]): void {
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Seed 002's exit codes: 2 arguments, 3 configuration, 5 not found, 6 state; 4 the ledger is damaged; 1 otherwise. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
  if (LedgerError.is(err)) return exitCodes[err.code];
  if (StoreError.is(err)) return err.reason === 'tooNew' ? 3 : err.reason === 'damaged' ? 4 : 1;
  return 1;
}

/** Reports a failure on stderr (as JSON with --json) and returns the exit code. */
export function reportError(err: unknown, json: boolean): number {
  const code = exitCodeOf(err);
  if (err instanceof CommanderError) return code; // commander already printed its message
  if (json) {
    const error = LedgerError.is(err) ? err.toJSON() : { reason: StoreError.is(err) ? err.reason : 'InternalError', message: err instanceof Error ? err.message : String(err) };
    process.stderr.write(`${JSON.stringify({ error })}\n`);
  } else {
    process.stderr.write(`${style.red('error:')} ${err instanceof Error ? err.message : String(err)}\n`);
    if (!LedgerError.is(err) && !StoreError.is(err) && err instanceof Error && process.env.AGENT_LEDGER_DEBUG) process.stderr.write(`${err.stack}\n`);
  }
  return code;
}

/** A compact relative age: "12s", "5m", "3h", "2d". */
export function age(isoTime: string | null, now = Date.now()): string {
  if (!isoTime) return '-';
  const s = Math.max(0, Math.round((now - Date.parse(isoTime)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

export function duration(seconds: number | null): string {
  return seconds === null ? '-' : formatDurationCompact(seconds);
}

/** Left-aligned columns; the last column is not padded. */
export function table(rows: string[][]): string[] {
  const visible = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '').length;
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visible(cell))));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i] - visible(cell)))).join('  '));
}
