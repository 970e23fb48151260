/**
 * How a run ended, in words for an execution log and a cooldown, and the end recorded for a run
 * whose process vanished while no runner watched it.
 */
import type { ProcessExit, ProcessRecord } from '../../ports/processes';
import type { RunUsage } from '../launch/runUsage';
import type { RunOutcome, RunStart } from './runnerPort';

/** How a run ended, in a few words. */
export function endReason(exit: ProcessExit): string {
  if (exit.limit === 'wallClock') return 'ran past its time limit';
  if (exit.limit === 'idle') return 'printed nothing for too long';
  if (exit.limit === 'outputBytes') return 'printed more than its output limit';
  if (exit.stopped) return 'stopped';
  if (exit.signal) return `killed by ${exit.signal}`;
  if (exit.exitCode !== 0) return `exited with code ${exit.exitCode}`;
  return 'exited';
}

/** The end of an adopted run stopped at its wall clock by the runner that adopted it (the one that started it died). */
export function wallClockExit(run: RunStart, record: ProcessRecord | undefined): ProcessExit {
  return {
    ...lostExit(run, record),
    limit: 'wallClock',
    tail: [
      `The run passed its wall clock (${record?.limits?.wallClockMs ?? '?'} ms) after its runner died; the runner that adopted it stopped it.`,
    ],
  };
}

/** The end of a run whose process vanished without anyone seeing it end (its runner died too). */
export function lostExit(run: RunStart, record: ProcessRecord | undefined): ProcessExit {
  const endedAt = new Date().toISOString();
  return {
    id: run.executionId,
    pid: run.pid,
    exitCode: null,
    signal: null,
    startedAt: run.startedAt,
    endedAt,
    durationMs: Math.max(0, Date.parse(endedAt) - Date.parse(run.startedAt)),
    stdoutBytes: 0,
    stderrBytes: 0,
    limit: null,
    stopped: false,
    tail: ['The run ended while no runner was watching it; its exit code is unknown.'],
    logFile: record?.logFile ?? run.logFile,
  };
}

/** Why a run failed whose client exited 0 without ever asking the ledger for its task. */
export const neverTookTask =
  "the agent never called get_my_task: its client exited without using the ledger's tools (did the ledger's MCP server start? its log says)";

/**
 * Why a run failed, in one line, or null when it did not: how it ended (the agent's `failed` or
 * `blocked` report, an exit without a report, a code, a signal, a limit) and the last error line it
 * printed (the client's own error result first: Claude Code's `is_error` answer says what went wrong).
 */
export function failureOf(exit: ProcessExit, usage: RunUsage | null, outcome: RunOutcome | null): string | null {
  // A person stopped it (the ledger recorded who): a stop, not a failure.
  if (outcome?.status === 'stopped') return null;
  const processOk = exit.exitCode === 0 && exit.limit === null && exit.signal === null && usage?.isError !== true;
  const reported = outcome?.status === 'completed' || outcome?.status === 'running' ? null : outcome;
  if (processOk && !reported) return null;
  // Claude Code and Gemini CLI exit 0 when the ledger's server failed to start: what the ledger saw says more than the last line.
  if (processOk && reported?.error === neverTookTask) return neverTookTask;
  if (processOk && reported?.status === 'failed')
    return `the agent reported ${reported.result ?? 'failed'}${reported.summary ? `: ${firstLine(reported.summary)}` : ''}`;
  const how = processOk ? 'the agent exited without report_completed' : `the agent ${endReason(exit)}`;
  const last = lastErrorLine(exit, usage);
  return last ? `${how}: ${last}` : how;
}

/** The last line worth reading of a failed run: the client's error result, else its last non-empty output line. */
function lastErrorLine(exit: ProcessExit, usage: RunUsage | null): string | null {
  if (usage?.isError === true && usage.result) return firstLine(usage.result);
  const line = [...exit.tail].reverse().find((l) => l.trim() !== '');
  return line === undefined ? null : firstLine(line);
}

function firstLine(text: string): string {
  const line = text.trim().split(/\r?\n/)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
