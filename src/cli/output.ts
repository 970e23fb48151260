import { CommanderError } from 'commander';
import { LedgerError, exitCodeOf as ledgerExitCode, storeReasonOf, errorMessage } from '../core/errors';
import { formatDurationCompact } from '../core/format';
import { sgr, toTerminal, visibleBlock, visibleWidth } from './terminalText';

/** Options every command takes. */
export interface CommonOptions {
  workspace?: string;
  db?: string;
  json?: boolean;
}

const colorOn = (stream: NodeJS.WriteStream): boolean => stream.isTTY === true && !process.env.NO_COLOR;

/**
 * Styling, applied when the text reaches a terminal (see terminalText.ts): it disappears when
 * the stream is not a terminal or NO_COLOR is set.
 */
export const style = {
  bold: (s: string) => sgr('1', '22', s),
  dim: (s: string) => sgr('2', '22', s),
  red: (s: string) => sgr('31', '39', s),
  green: (s: string) => sgr('32', '39', s),
  yellow: (s: string) => sgr('33', '39', s),
  cyan: (s: string) => sgr('36', '39', s),
};

/** `--json` output: exact (JSON escapes every control character). */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Human-readable output on stdout; ledger text in `lines` has been through `visible()`. */
export function printLines(lines: string[]): void {
  if (lines.length === 0) return;
  process.stdout.write(toTerminal(`${lines.join('\n')}\n`, colorOn(process.stdout)));
}

/** Human-readable output on stderr (what is not the command's result). */
export function printErrorLines(lines: string[]): void {
  process.stderr.write(toTerminal(`${lines.join('\n')}\n`, colorOn(process.stderr)));
}

/** The task-management contract's exit codes: 2 arguments, 3 configuration, 5 not found, 6 state; 4 the ledger is damaged; 1 otherwise. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
  if (LedgerError.is(err)) return ledgerExitCode(err);
  return 1;
}

/** Reports a failure on stderr (as JSON with --json) and returns the exit code. */
export function reportError(err: unknown, json: boolean): number {
  const code = exitCodeOf(err);
  if (err instanceof CommanderError) return code; // commander already printed its message
  if (json) {
    // A store failure shows its own reason (`damaged`, `badLocation`…) as the CLI always did.
    const error = LedgerError.is(err)
      ? { ...err.toJSON(), reason: storeReasonOf(err) ?? err.code }
      : { reason: 'InternalError', message: errorMessage(err) };
    process.stderr.write(`${JSON.stringify({ error })}\n`);
  } else {
    printErrorLines([`${style.red('error:')} ${visibleBlock(errorMessage(err))}`]);
    if (!LedgerError.is(err) && err instanceof Error && process.env.AGENT_LEDGER_DEBUG)
      printErrorLines([visibleBlock(err.stack)]);
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
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleWidth(cell))));
  return rows.map((row) =>
    row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i] - visibleWidth(cell)))).join('  '),
  );
}
