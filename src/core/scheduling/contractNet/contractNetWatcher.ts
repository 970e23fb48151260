import { validationError } from '../../errors';
import type { PheromoneBounds } from '../stigmergy/stigmergySnapshot';

/**
 * The watcher that keeps open contract-net calls in step with the stigmergic field, as a pure
 * state machine (the public implementation's src/coord/contractNetWatchers.ts runs it on timers
 * and listeners; here the caller feeds it events and `now`, and acts on what it answers):
 *  - start: remember the field's bounds, refresh every open call with them (`initial` emission);
 *  - a field change: counted (`received_updates`); with a coalescing window, changes landing
 *    while a flush is already due are `coalesced_updates`; with a window of 0 the flush is now;
 *  - flush: bounds equal to the last ones (within 1e-6) are a `skipped_refreshes`; new ones
 *    count a `flushes` and ask for the open calls to be refreshed (`applied_refreshes` when any
 *    call is open);
 *  - detach: a last flush (`detach` emission).
 * Every emission bumps `emissions` and `last_emitted_at_ms`; publish it on the bus as
 * `cat: "contract_net"`, `msg: "cnp_watcher_telemetry"`.
 */

/** What caused an emission. */
export type WatcherReason = 'initial' | 'flush' | 'detach';

/** The counters of one emission, in `cnp_watcher_telemetry`'s shape. */
export interface WatcherSnapshot {
  reason: WatcherReason;
  received_updates: number;
  coalesced_updates: number;
  skipped_refreshes: number;
  applied_refreshes: number;
  flushes: number;
  last_bounds: PheromoneBounds | null;
}

/** The watcher's whole state: counters, pending flush, last emission. Plain data. */
export interface WatcherState {
  coalesce_window_ms: number;
  received_updates: number;
  coalesced_updates: number;
  skipped_refreshes: number;
  applied_refreshes: number;
  flushes: number;
  last_bounds: PheromoneBounds | null;
  /** A change arrived since the last flush. */
  pending: boolean;
  /** When the pending flush is due (null: none scheduled). */
  flush_due_at_ms: number | null;
  emissions: number;
  last_emitted_at_ms: number | null;
  last_snapshot: WatcherSnapshot | null;
  attached: boolean;
}

/** What a step asks of the caller. */
export interface WatcherStep {
  state: WatcherState;
  /** Refresh every open call with these bounds (undefined: nothing to refresh). */
  refresh?: PheromoneBounds | null;
  /** The telemetry emitted by this step, to publish (null: none). */
  emitted: WatcherSnapshot | null;
}

/** Where each emission goes on the event bus (category and message of the event). */
export const watcherEventTopic = { cat: 'contract_net', msg: 'cnp_watcher_telemetry' } as const;

/** Default coalescing window of the public implementation. */
export const defaultCoalesceWindowMs = 50;

/** Starts watching: the open calls are refreshed with the current bounds. */
export function startWatcher(
  bounds: PheromoneBounds | null,
  openCalls: number,
  now: number,
  coalesceWindowMs = defaultCoalesceWindowMs,
): WatcherStep {
  if (!Number.isFinite(coalesceWindowMs) || coalesceWindowMs < 0)
    throw validationError('the coalescing window must be a finite number >= 0');
  const state: WatcherState = {
    coalesce_window_ms: coalesceWindowMs,
    received_updates: 0,
    coalesced_updates: 0,
    skipped_refreshes: 0,
    applied_refreshes: openCalls > 0 ? 1 : 0,
    flushes: 0,
    last_bounds: copy(bounds),
    pending: false,
    flush_due_at_ms: null,
    emissions: 0,
    last_emitted_at_ms: null,
    last_snapshot: null,
    attached: true,
  };
  return { ...emit(state, 'initial', now), refresh: copy(bounds) };
}

/** A change of the field. `flushAt` is when to call `flushWatcher` (now when the window is 0). */
export function fieldChanged(state: WatcherState, now: number): { state: WatcherState; flushAt: number | null } {
  if (!state.attached) return { state, flushAt: null };
  const next = { ...state, received_updates: state.received_updates + 1, pending: true };
  if (state.coalesce_window_ms === 0) return { state: next, flushAt: now };
  if (state.flush_due_at_ms !== null)
    return { state: { ...next, coalesced_updates: next.coalesced_updates + 1 }, flushAt: state.flush_due_at_ms };
  const due = now + state.coalesce_window_ms;
  return { state: { ...next, flush_due_at_ms: due }, flushAt: due };
}

/** Is a scheduled flush due at `now`? */
export function isFlushDue(state: WatcherState, now: number): boolean {
  return state.attached && state.pending && (state.flush_due_at_ms === null || now >= state.flush_due_at_ms);
}

/** Flushes pending changes with the field's current bounds. */
export function flushWatcher(
  state: WatcherState,
  bounds: PheromoneBounds | null,
  openCalls: number,
  now: number,
  reason: 'flush' | 'detach' = 'flush',
): WatcherStep {
  const cleared = { ...state, pending: false, flush_due_at_ms: null };
  if (!state.pending) return reason === 'detach' ? emit(cleared, 'detach', now) : { state: cleared, emitted: null };
  if (boundsEqual(bounds, state.last_bounds))
    return emit({ ...cleared, skipped_refreshes: state.skipped_refreshes + 1 }, reason, now);
  const next: WatcherState = {
    ...cleared,
    last_bounds: copy(bounds),
    flushes: state.flushes + 1,
    applied_refreshes: state.applied_refreshes + (openCalls > 0 ? 1 : 0),
  };
  return { ...emit(next, reason, now), refresh: copy(bounds) };
}

/** Stops watching with a last flush. */
export function detachWatcher(
  state: WatcherState,
  bounds: PheromoneBounds | null,
  openCalls: number,
  now: number,
): WatcherStep {
  const step = flushWatcher(state, bounds, openCalls, now, 'detach');
  return { ...step, state: { ...step.state, attached: false } };
}

/** `cnp_watcher_telemetry`'s result for a watcher (null: no watcher runs). */
export function watcherTelemetry(state: WatcherState | null): {
  telemetry_enabled: boolean;
  emissions: number;
  last_emitted_at_ms: number | null;
  last_emitted_at_iso: string | null;
  last_snapshot: WatcherSnapshot | null;
} {
  if (!state)
    return {
      telemetry_enabled: false,
      emissions: 0,
      last_emitted_at_ms: null,
      last_emitted_at_iso: null,
      last_snapshot: null,
    };
  return {
    telemetry_enabled: true,
    emissions: state.emissions,
    last_emitted_at_ms: state.last_emitted_at_ms,
    last_emitted_at_iso: state.last_emitted_at_ms === null ? null : new Date(state.last_emitted_at_ms).toISOString(),
    last_snapshot: state.last_snapshot
      ? { ...state.last_snapshot, last_bounds: copy(state.last_snapshot.last_bounds) }
      : null,
  };
}

function emit(state: WatcherState, reason: WatcherReason, now: number): WatcherStep {
  const snapshot: WatcherSnapshot = {
    reason,
    received_updates: state.received_updates,
    coalesced_updates: state.coalesced_updates,
    skipped_refreshes: state.skipped_refreshes,
    applied_refreshes: state.applied_refreshes,
    flushes: state.flushes,
    last_bounds: copy(state.last_bounds),
  };
  return {
    state: { ...state, emissions: state.emissions + 1, last_emitted_at_ms: now, last_snapshot: snapshot },
    emitted: snapshot,
  };
}

function boundsEqual(a: PheromoneBounds | null, b: PheromoneBounds | null): boolean {
  if (a === null || b === null) return a === b;
  const close = (x: number, y: number) => Math.abs(x - y) <= 1e-6;
  const maxEqual =
    a.max_intensity === null || b.max_intensity === null
      ? a.max_intensity === b.max_intensity
      : close(a.max_intensity, b.max_intensity);
  return close(a.min_intensity, b.min_intensity) && maxEqual && close(a.normalisation_ceiling, b.normalisation_ceiling);
}

function copy(bounds: PheromoneBounds | null): PheromoneBounds | null {
  return bounds ? { ...bounds } : null;
}
