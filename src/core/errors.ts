/**
 * Expected failures of the domain. `core` throws these; `mcp/` turns them into `isError`
 * results carrying `code`, `cli/` into exit codes, `vscode/` into messages.
 * The codes are the task-management contract's table, extended with NotFound, StoreError, Unauthorized (an agent's
 * login, session token or bearer token refused), QuotaExceeded (a bound of the ledger reached: docs/limits.md),
 * Throttled (too many wrong passkeys: retry after `data.retry_after_ms`), Forbidden (a caller whose role may not
 * do this: an agent token answering a checkpoint) and JSON-RPC's InternalError. None is in -32020..-32099, which
 * MCP reserves for its own protocol errors.
 */
export type LedgerErrorCode =
  | 'TaskNotFound'
  | 'AgentNotFound'
  | 'SessionNotFound'
  | 'InvalidStatus'
  | 'SessionAlreadyRunning'
  | 'ConfigError'
  | 'ValidationError'
  | 'GitError'
  | 'NotFound'
  | 'StoreError'
  | 'Unauthorized'
  | 'QuotaExceeded'
  | 'Throttled'
  | 'Forbidden'
  | 'InternalError';

/** JSON-RPC style numeric codes of the task-management contract, plus ours. */
export const errorNumbers: Record<LedgerErrorCode, number> = {
  TaskNotFound: -32001,
  AgentNotFound: -32002,
  SessionNotFound: -32003,
  InvalidStatus: -32004,
  SessionAlreadyRunning: -32005,
  ConfigError: -32006,
  ValidationError: -32007,
  GitError: -32008,
  NotFound: -32009,
  StoreError: -32010,
  Unauthorized: -32011,
  QuotaExceeded: -32012,
  Throttled: -32013,
  Forbidden: -32014,
  InternalError: -32603,
};

/** CLI exit codes of the task-management contract: 2 arguments, 3 configuration, 5 not found (and git), 6 state (a bound reached: later, or less). */
export const exitCodes: Record<LedgerErrorCode, number> = {
  TaskNotFound: 5,
  AgentNotFound: 5,
  SessionNotFound: 5,
  InvalidStatus: 6,
  SessionAlreadyRunning: 6,
  ConfigError: 3,
  ValidationError: 2,
  GitError: 5,
  NotFound: 5,
  StoreError: 1,
  Unauthorized: 6,
  QuotaExceeded: 6,
  Throttled: 6,
  Forbidden: 6,
  InternalError: 1,
};

export class LedgerError extends Error {
  constructor(
    readonly code: LedgerErrorCode,
    message: string,
    /** Machine-readable details, e.g. `{ taskId: 999 }`. */
    readonly data?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LedgerError';
  }

  static is(ex: unknown, code?: LedgerErrorCode): ex is LedgerError {
    return ex instanceof LedgerError && (code === undefined || ex.code === code);
  }

  toJSON(): { code: number; reason: LedgerErrorCode; message: string; data?: Record<string, unknown> } {
    return {
      code: errorNumbers[this.code],
      reason: this.code,
      message: this.message,
      ...(this.data ? { data: this.data } : {}),
    };
  }
}

/**
 * The reason of a store failure (`damaged`, `busy`, `unavailable`, `badLocation`…: the store
 * layer's StoreError is a LedgerError with code `StoreError` and `data.reason`), or undefined.
 */
export function storeReasonOf(err: unknown): string | undefined {
  if (!LedgerError.is(err, 'StoreError')) return undefined;
  const reason = err.data?.reason;
  return typeof reason === 'string' ? reason : undefined;
}

/** The CLI's exit code of a failure: the task-management contract's table; a store failure 3 (configuration: a store too new, a bad --db), 4 (damaged) or 1. */
export function exitCodeOf(err: LedgerError): number {
  const reason = storeReasonOf(err);
  if (reason === 'tooNew' || reason === 'badLocation') return 3;
  if (reason === 'damaged') return 4;
  return exitCodes[err.code];
}

export function validationError(message: string, data?: Record<string, unknown>): LedgerError {
  return new LedgerError('ValidationError', message, data);
}

export function stateError(message: string, data?: Record<string, unknown>): LedgerError {
  return new LedgerError('InvalidStatus', message, data);
}

/** The message of anything thrown: an Error's message, anything else as a string. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
