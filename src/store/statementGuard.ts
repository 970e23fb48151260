import { StoreError } from './errors';

/**
 * One rule for both engines: a statement that fails loses its write transaction. PostgreSQL
 * refuses every later statement of an aborted transaction (and turns its COMMIT into a silent
 * ROLLBACK); SQLite would carry on. The guard makes the embedded engine refuse the same way, and
 * both engines reject the write with the first failure even when `fn` caught it and returned.
 *
 * Two ways to run the statements of one transaction, with the same results:
 * - in turn (the embedded engine: one statement after the other);
 * - pipelined (PostgreSQL): a statement is sent as soon as `fn` issues it, without waiting for
 *   the answers of the ones before (`Promise.all` of reads then costs one round trip, not one
 *   each). The connection answers in order, so when a statement's answer arrives every earlier
 *   one has settled: a statement after a failed one is refused `aborted` as in turn.
 */
export class StatementGuard {
  private failure: unknown;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly pipelined = false) {}

  /**
   * Runs one statement of the transaction after the ones before it (a connection runs one at a
   * time: `Promise.all` of reads inside one `fn` is fine), remembering its failure.
   */
  run<T>(statement: () => Promise<T> | T): Promise<T> {
    if (this.pipelined) return this.send(statement);
    const next = this.tail.then(() => this.runNow(statement));
    this.tail = next.catch(() => undefined);
    return next;
  }

  private async runNow<T>(statement: () => Promise<T> | T): Promise<T> {
    this.refuseAfterFailure();
    try {
      return await statement();
    } catch (err) {
      this.failure = err;
      throw err;
    }
  }

  /** Pipelined: sent now; its answer is judged when it arrives (after every earlier one's). */
  private async send<T>(statement: () => Promise<T> | T): Promise<T> {
    this.refuseAfterFailure();
    try {
      const value = await statement();
      this.refuseAfterFailure();
      return value;
    } catch (err) {
      this.refuseAfterFailure();
      this.failure = err;
      throw err;
    }
  }

  private refuseAfterFailure(): void {
    if (this.failure !== undefined) {
      throw new StoreError(
        'aborted',
        `a statement after a failed one in the same write: the write is already rolled back (${(this.failure as Error).message ?? this.failure})`,
      );
    }
  }

  /** Throws the first failure, if any (before COMMIT). */
  check(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}
