import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  detachWatcher,
  fieldChanged,
  flushWatcher,
  isFlushDue,
  startWatcher,
  watcherEventTopic,
  watcherTelemetry,
} from '../../../../../src/core/scheduling/contractNet/contractNetWatcher';
import type { WatcherState } from '../../../../../src/core/scheduling/contractNet/contractNetWatcher';
import { cnpWatcherTelemetryResult } from '../../../../../src/core/scheduling/contractNet/contractNetContracts';

const bounds = (ceiling: number) => ({ min_intensity: 0, max_intensity: null, normalisation_ceiling: ceiling });
const counters = (s: WatcherState) => [
  s.received_updates,
  s.coalesced_updates,
  s.skipped_refreshes,
  s.applied_refreshes,
  s.flushes,
];

test('a coalescing window folds a burst of changes into one refresh', () => {
  const start = startWatcher(bounds(1), 1, 0, 25);
  assert.deepEqual(start.refresh, bounds(1), 'open calls are aligned at once');
  assert.deepEqual(start.emitted, {
    reason: 'initial',
    received_updates: 0,
    coalesced_updates: 0,
    skipped_refreshes: 0,
    applied_refreshes: 1,
    flushes: 0,
    last_bounds: bounds(1),
  });
  let s = start.state;
  const first = fieldChanged(s, 10);
  assert.equal(first.flushAt, 35);
  s = fieldChanged(fieldChanged(first.state, 11).state, 12).state;
  assert.equal(isFlushDue(s, 30), false);
  assert.equal(isFlushDue(s, 35), true);
  const flush = flushWatcher(s, bounds(7), 1, 35);
  assert.deepEqual(flush.refresh, bounds(7));
  assert.deepEqual(counters(flush.state), [3, 2, 0, 2, 1]);
  assert.equal(flush.emitted?.reason, 'flush');
  const detach = detachWatcher(flush.state, bounds(7), 1, 40);
  assert.equal(detach.refresh, undefined, 'nothing pending: nothing to refresh');
  assert.deepEqual([detach.emitted?.reason, ...counters(detach.state)], ['detach', 3, 2, 0, 2, 1]);
  assert.equal(detach.state.emissions, 3);
  assert.equal(fieldChanged(detach.state, 50).state, detach.state, 'a detached watcher ignores changes');
});

test('without a window every change flushes; unchanged bounds count as skipped refreshes', () => {
  let s = startWatcher(bounds(1), 1, 0, 0).state;
  const change = fieldChanged(s, 5);
  assert.equal(change.flushAt, 5);
  let step = flushWatcher(change.state, bounds(7), 1, 5);
  assert.deepEqual(counters(step.state), [1, 0, 0, 2, 1]);
  s = fieldChanged(step.state, 6).state;
  step = flushWatcher(s, { ...bounds(7), normalisation_ceiling: 7 + 1e-9 }, 1, 6);
  assert.equal(step.refresh, undefined, 'equal within 1e-6: no refresh');
  assert.deepEqual(counters(step.state), [2, 0, 1, 2, 1]);
  assert.equal(flushWatcher(step.state, bounds(9), 1, 7).emitted, null, 'a flush with nothing pending emits nothing');
  const none = flushWatcher(fieldChanged(step.state, 8).state, bounds(9), 0, 8);
  assert.deepEqual(
    counters(none.state),
    [3, 0, 1, 2, 2],
    'new bounds with no open call: a flush but no applied refresh',
  );
});

test('telemetry: disabled without a watcher; else emissions, the last emission time and ISO, the last counters', () => {
  assert.deepEqual(watcherEventTopic, { cat: 'contract_net', msg: 'cnp_watcher_telemetry' });
  assert.deepEqual(watcherTelemetry(null), {
    telemetry_enabled: false,
    emissions: 0,
    last_emitted_at_ms: null,
    last_emitted_at_iso: null,
    last_snapshot: null,
  });
  let s = startWatcher({ min_intensity: 0, max_intensity: null, normalisation_ceiling: 0 }, 1, 0, 0).state;
  s = flushWatcher(fieldChanged(s, 5).state, bounds(2), 1, 5).state;
  s = detachWatcher(s, bounds(2), 1, 15).state;
  const t = watcherTelemetry(s);
  cnpWatcherTelemetryResult.parse(t);
  assert.deepEqual(t, {
    telemetry_enabled: true,
    emissions: 3,
    last_emitted_at_ms: 15,
    last_emitted_at_iso: new Date(15).toISOString(),
    last_snapshot: {
      reason: 'detach',
      received_updates: 1,
      coalesced_updates: 0,
      skipped_refreshes: 0,
      applied_refreshes: 2,
      flushes: 1,
      last_bounds: bounds(2),
    },
  });
});
