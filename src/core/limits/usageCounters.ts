import type { AsyncSqlReader, AsyncSqlWriter } from '../ports/store';

/**
 * Counters in the ledger (usage_counters, migration v18), shared by every process and machine:
 * the login throttle counts wrong passkeys in them (`login:…`), the write quota characters written
 * (`quota:…`), both in windows: a counter starts again from zero when its count is stale — `since`
 * (when the count began) for a fixed window, `updated_at` (its last change) for one that forgets
 * after a quiet while. What a store holds (`usage:…`, e.g. the characters of a blackboard
 * namespace) is kept by the writes that change it, and computed from the rows when absent.
 */
export interface UsageCounter {
  amount: number;
  since: number;
  updatedAt: number;
}

export async function readCounters(db: AsyncSqlReader, scopes: readonly string[]): Promise<Map<string, UsageCounter>> {
  const rows = await db.all<{ scope: string; amount: number; since: number; updated_at: number }>(
    `SELECT scope, amount, since, updated_at FROM usage_counters WHERE scope IN (${scopes.map(() => '?').join(', ')})`,
    scopes,
  );
  return new Map(
    rows.map((r) => [r.scope, { amount: Number(r.amount), since: Number(r.since), updatedAt: Number(r.updated_at) }]),
  );
}

/**
 * Adds `amount` to `scope` at `now`, starting the count again when its `staleBy` column is before
 * `staleBefore`; returns the count after.
 */
export async function addToCounter(
  tx: AsyncSqlWriter,
  scope: string,
  amount: number,
  now: number,
  stale: { by: 'since' | 'updated_at'; before: number },
): Promise<number> {
  const fresh = `usage_counters.${stale.by} < ?`;
  await tx.run(
    `INSERT INTO usage_counters (scope, amount, since, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (scope) DO UPDATE SET
       amount = CASE WHEN ${fresh} THEN excluded.amount ELSE usage_counters.amount + excluded.amount END,
       since = CASE WHEN ${fresh} THEN excluded.since ELSE usage_counters.since END,
       updated_at = excluded.updated_at`,
    [scope, amount, now, now, stale.before, stale.before],
  );
  const row = await tx.get<{ amount: number }>('SELECT amount FROM usage_counters WHERE scope = ?', [scope]);
  return Number(row?.amount ?? amount);
}

export async function removeCounter(tx: AsyncSqlWriter, scope: string): Promise<void> {
  await tx.run('DELETE FROM usage_counters WHERE scope = ?', [scope]);
}

/** Removes window counters (login, quota) nothing changed since `before`: they count nothing any more. */
export async function removeIdleCounters(tx: AsyncSqlWriter, before: number): Promise<number> {
  return (
    await tx.run(
      "DELETE FROM usage_counters WHERE updated_at < ? AND (substr(scope, 1, 6) = 'login:' OR substr(scope, 1, 6) = 'quota:')",
      [before],
    )
  ).changes;
}

/**
 * What `scope` (a `usage:` counter) holds now: its row, or — the first time, or after the row was
 * removed — `compute()` from the rows themselves. Call it before changing those rows.
 */
export async function usageOf(tx: AsyncSqlWriter, scope: string, compute: () => Promise<number>): Promise<number> {
  const row = await tx.get<{ amount: number }>('SELECT amount FROM usage_counters WHERE scope = ?', [scope]);
  return row ? Number(row.amount) : compute();
}

/** Records what `scope` holds after a write (the row goes when it holds nothing). */
export async function setUsage(tx: AsyncSqlWriter, scope: string, amount: number, now: number): Promise<void> {
  if (amount <= 0) {
    await removeCounter(tx, scope);
    return;
  }
  await tx.run(
    `INSERT INTO usage_counters (scope, amount, since, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (scope) DO UPDATE SET amount = excluded.amount, updated_at = excluded.updated_at`,
    [scope, amount, now, now],
  );
}
