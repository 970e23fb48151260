/**
 * How a run ended, in words for an execution log and a cooldown, and the end recorded for a run
 * whose process vanished while no runner watched it.
 */
import type { ProcessExit, ProcessRecord } from '../../ports/processes';
import type { RunStart } from './runnerPort';

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
