import type { AsyncSqlWriter, LedgerEngine, SqlParams } from '../ports/store';
import type { LedgerError } from '../errors';
import { writerIdentity } from '../caller';
import { limitReached } from './ledgerLimits';
import type { LedgerLimits } from './ledgerLimits';
import { addToCounter, readCounters } from './usageCounters';

export type QuotaLimits = Pick<LedgerLimits, 'quotaBytes' | 'quotaWindowMs'>;

/**
 * The write quota: characters one caller (an agent logged in, else a connection: core/caller.ts)
 * may write per window, whatever the tool — blackboard values, triples, plan-graph versions,
 * tasks and the events they append alike. Counted in the ledger (usage_counters) in the same
 * transaction as the write, so every process of the caller adds to one count and a write that
 * passes the quota is rolled back whole. Writes outside a tool call (the ledger's own work, the
 * editor) are not counted.
 */
export class WriteQuota {
  /** Callers refused in this process, and the end of that window. */
  private readonly spent = new Map<string, number>();

  constructor(
    private readonly limits: QuotaLimits,
    private readonly clock: () => number = Date.now,
  ) {}

  /** `engine` with every write made inside a tool call charged to its caller. */
  meter(engine: LedgerEngine): LedgerEngine {
    const write: LedgerEngine['write'] = (fn) => {
      const caller = writerIdentity();
      if (caller === undefined) return engine.write(fn);
      const run = (): ReturnType<typeof fn> =>
        engine.write(async (tx) => {
          // Counted per attempt: on PostgreSQL `fn` may run again after a lost connection.
          let chars = 0;
          const metered: AsyncSqlWriter = {
            get: (sql, params) => tx.get(sql, params),
            all: (sql, params) => tx.all(sql, params),
            run: (sql, params) => ((chars += sizeOf(params)), tx.run(sql, params)),
            insert: (sql, params) => ((chars += sizeOf(params)), tx.insert(sql, params)),
          };
          const value = await fn(metered);
          if (chars > 0) await this.charge(tx, caller, chars);
          return value;
        });
      // Only a caller refused before waits for a look at its count; the others' writes keep their order.
      return this.spent.has(caller) ? this.refuseIfSpent(engine, caller).then(run) : run();
    };
    return new Proxy(engine, {
      get: (target, property, receiver) => (property === 'write' ? write : Reflect.get(target, property, receiver)),
    });
  }

  private async charge(tx: AsyncSqlWriter, caller: string, chars: number): Promise<void> {
    const now = this.clock();
    const windowStart = now - (now % this.limits.quotaWindowMs);
    const used = await addToCounter(tx, `quota:${caller}`, chars, now, { by: 'since', before: windowStart });
    if (used <= this.limits.quotaBytes) return;
    const windowEnd = windowStart + this.limits.quotaWindowMs;
    this.spent.set(caller, windowEnd);
    throw this.refusal(caller, windowEnd - now);
  }

  /**
   * A caller this process refused in this window is looked up before its next write (one read,
   * no lock): when its count is full, that write is refused before it runs. Other callers pay nothing.
   */
  private async refuseIfSpent(engine: LedgerEngine, caller: string): Promise<void> {
    const until = this.spent.get(caller);
    if (until === undefined) return;
    const now = this.clock();
    if (now >= until) {
      this.spent.delete(caller);
      return;
    }
    const counter = (await engine.read((db) => readCounters(db, [`quota:${caller}`]))).get(`quota:${caller}`);
    if (counter && counter.since >= until - this.limits.quotaWindowMs && counter.amount >= this.limits.quotaBytes)
      throw this.refusal(caller, until - now);
  }

  private refusal(caller: string, retryAfterMs: number): LedgerError {
    const minutes = Math.round(this.limits.quotaWindowMs / 60_000);
    return limitReached(
      'quotaBytes',
      `${caller} has written as much as one caller may in ${minutes} min (${this.limits.quotaBytes} characters): nothing of this call was written; retry in ${Math.ceil(retryAfterMs / 1000)} s`,
      { caller, retry_after_ms: retryAfterMs },
    );
  }
}

/** Characters of a statement's values (a number counts 8). */
function sizeOf(params: SqlParams | undefined): number {
  let n = 0;
  for (const p of params ?? []) n += typeof p === 'string' ? p.length : 8;
  return n;
}
