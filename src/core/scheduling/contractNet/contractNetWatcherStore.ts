import type { AsyncSqlReader, AsyncSqlWriter } from '../../ports/store';
import { fieldChanged, watcherEventTopic } from './contractNetWatcher';
import type { WatcherSnapshot, WatcherState } from './contractNetWatcher';
import { callerTokenId } from '../../caller';

/**
 * The contract-net watcher's one row (cnp_watcher, migration v11). It starts with the first
 * contract-net call; every write that changes the stigmergy field counts as an update (in the
 * same transaction), and the next contract-net call after the coalescing window flushes them:
 * open calls get the new pressure and the counters are emitted as an event
 * (`contract_net` / `cnp_watcher_telemetry`) every process and `events_subscribe` can read.
 */

export async function loadWatcher(db: AsyncSqlReader): Promise<WatcherState | null> {
  const row = await db.get<{ state: string }>('SELECT state FROM cnp_watcher WHERE id = 1');
  return row ? (JSON.parse(row.state) as WatcherState) : null;
}

export async function saveWatcher(tx: AsyncSqlWriter, state: WatcherState, now: number): Promise<void> {
  await tx.run(
    'INSERT INTO cnp_watcher (id, state, updated_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at',
    [JSON.stringify(state), now],
  );
}

/** The field changed (called inside the stigmergy write): counted, flushed by the next contract-net call. */
export async function noteFieldChange(tx: AsyncSqlWriter, now: number): Promise<void> {
  const state = await loadWatcher(tx);
  if (!state || !state.attached) return;
  await saveWatcher(tx, fieldChanged(state, now).state, now);
}

/** The emission as an event of the log. */
export async function appendWatcherEvent(
  tx: AsyncSqlWriter,
  state: WatcherState,
  emitted: WatcherSnapshot,
  now: number,
): Promise<number> {
  return tx.insert(
    'INSERT INTO events (ts, kind, entity, entity_id, payload, token_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq',
    [
      new Date(now).toISOString(),
      watcherEventTopic.msg,
      watcherEventTopic.cat,
      'watcher',
      JSON.stringify({
        ...watcherEventTopic,
        ...emitted,
        emissions: state.emissions,
        last_emitted_at_ms: state.last_emitted_at_ms,
      }),
      callerTokenId(),
    ],
  );
}
