/**
 * The one error of the process supervisor. Each failure has a `reason` so callers branch on it,
 * never on message text (STYLE.md habit 5); the `LedgerError` code maps it onto the existing
 * codes faces already turn into `isError` results and exit codes.
 */
import { LedgerError } from '../errors';
import type { LedgerErrorCode } from '../errors';

export type ProcessErrorReason =
  /** The program is neither a bare name nor an absolute path (a path with `/`, spaces, a shell line…). */
  | 'invalidProgram'
  /** No executable of that name on the child's PATH, or the absolute path is not an executable file. */
  | 'programNotFound'
  /** The working folder does not exist or is not a folder. */
  | 'cwdMissing'
  /** A secret value appears in an argument (secrets travel in the environment only). */
  | 'secretInArgs'
  /** An id is not `[A-Za-z0-9._-]+`, or a process with that id is already running here. */
  | 'invalidId'
  | 'duplicateId'
  /** The operating system refused to start it. */
  | 'spawnFailed'
  /** No process with that id was started by this supervisor. */
  | 'unknownProcess'
  /** The process has ended, or its stdin is not a pipe / was closed. */
  | 'notRunning'
  | 'stdinClosed'
  /** A launch description is wrong (unknown placeholder in a command template, bad MCP server name…). */
  | 'invalidLaunch';

const codes: Record<ProcessErrorReason, LedgerErrorCode> = {
  invalidProgram: 'ValidationError',
  programNotFound: 'ConfigError',
  cwdMissing: 'ConfigError',
  secretInArgs: 'ValidationError',
  invalidId: 'ValidationError',
  duplicateId: 'InvalidStatus',
  spawnFailed: 'InternalError',
  unknownProcess: 'NotFound',
  notRunning: 'InvalidStatus',
  stdinClosed: 'InvalidStatus',
  invalidLaunch: 'ValidationError',
};

export class ProcessError extends LedgerError {
  constructor(
    readonly reason: ProcessErrorReason,
    message: string,
    data?: Record<string, unknown>,
  ) {
    super(codes[reason], message, { reason, ...data });
    this.name = 'ProcessError';
  }

  /** True for any ProcessError, or only for one with `reason` (a `LedgerErrorCode` compares against `code`). */
  static override is(ex: unknown, reason?: ProcessErrorReason | LedgerErrorCode): ex is ProcessError {
    return ex instanceof ProcessError && (reason === undefined || ex.reason === reason || ex.code === reason);
  }
}
