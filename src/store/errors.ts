import { LedgerError } from '../core/errors';
import type { LedgerErrorCode } from '../core/errors';

/** Why a store operation failed. */
export type StoreErrorReason =
  | 'busy' // the cross-process lock (file lock or the server's commit lock) could not be taken in time
  | 'damaged' // the image or journal is damaged (not a torn tail): reads and writes stop until `db repair`
  | 'lockMisuse'
  | 'readonly' // a write on a store opened read-only
  | 'closed'
  | 'diskFull' // the disk holding the store (or the PostgreSQL server's) has no room left: nothing was written, retry once there is
  | 'tooNew' // the store was written by a newer Agent Ledger (unknown schema version)
  // --- the engines (embedded and PostgreSQL) ---
  | 'badLocation' // `--db` is neither a file path nor a postgres:// URL (e.g. mysql://), or the URL is malformed
  | 'unavailable' // the database server cannot be reached (down, restarting, connection reset) after the retries
  | 'authFailed' // the server refused the user or password
  | 'unknownDatabase' // the database named in the URL does not exist on the server
  | 'notInitialized' // the database has no ledger schema yet: run `agent-ledger db init`
  | 'needsMigration' // the database's ledger schema is older than this Agent Ledger: run `agent-ledger db migrate`
  | 'notEmpty' // `db copy` refuses a target that already holds a ledger
  | 'ambiguousCommit' // the connection died while COMMIT was in flight and the outcome could not be checked
  | 'constraint' // a UNIQUE, FOREIGN KEY, NOT NULL or CHECK constraint refused a statement
  | 'aborted' // a statement after a failed one in the same write (the transaction is already lost)
  | 'sql'; // any other error the database reported for a statement (syntax, unknown column…)

/**
 * A store failure: a LedgerError with code `StoreError` and `data: { reason }`, so every face
 * reports it as it reports any other failure (MCP `{ code: -32010, reason: 'StoreError', data:
 * { reason } }`, the CLI's exit code from core's exitCodeOf, the editor's message).
 */
export class StoreError extends LedgerError {
  constructor(
    readonly reason: StoreErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('StoreError', message, { reason }, options);
    this.name = 'StoreError';
  }

  static override is(ex: unknown, reason?: StoreErrorReason | LedgerErrorCode): ex is StoreError {
    return ex instanceof StoreError && (reason === undefined || reason === 'StoreError' || ex.reason === reason);
  }
}
