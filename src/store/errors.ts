/** Why a store operation failed. */
export type StoreErrorReason =
  | 'busy' // the cross-process lock could not be taken in time
  | 'damaged' // the image or journal is damaged (not a torn tail): reads and writes stop until `db repair`
  | 'lockMisuse'
  | 'readonly' // a write on a store opened read-only
  | 'closed'
  | 'tooNew'; // the store was written by a newer Agent Ledger (unknown schema version)

export class StoreError extends Error {
  constructor(
    readonly reason: StoreErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }

  static is(ex: unknown, reason?: StoreErrorReason): ex is StoreError {
    return ex instanceof StoreError && (reason === undefined || ex.reason === reason);
  }
}
