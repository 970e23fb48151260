import { StoreError } from './errors';

/**
 * One rule for both engines: a statement that fails loses its write transaction. PostgreSQL
 * refuses every later statement of an aborted transaction (and turns its COMMIT into a silent
 * ROLLBACK); SQLite would carry on. The guard makes the embedded engine refuse the same way, and
 * both engines reject the write with the first failure even when `fn` caught it and returned.
 */
export class StatementGuard {
  private failure: unknown;
  private tail: Promise<unknown> = Promise.resolve();

  /**
   * Runs one statement of the transaction after the ones before it (a connection runs one at a
   * time: `Promise.all` of reads inside one `fn` is fine), remembering its failure.
   */
  run<T>(statement: () => Promise<T> | T): Promise<T> {
    const next = this.tail.then(() => this.runNow(statement));
    this.tail = next.catch(() => undefined);
    return next;
  }

  private async runNow<T>(statement: () => Promise<T> | T): Promise<T> {
    if (this.failure !== undefined) {
      throw new StoreError('aborted', `a statement after a failed one in the same write: the write is already rolled back (${(this.failure as Error).message ?? this.failure})`);
    }
    try {
      return await statement();
    } catch (err) {
      this.failure = err;
      throw err;
    }
  }

  /** Throws the first failure, if any (before COMMIT). */
  check(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}
