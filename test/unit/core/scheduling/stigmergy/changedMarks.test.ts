import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedMarksMsFromEnv, watchedRuns } from '../../../../../src/core/scheduling/stigmergy/changedMarks';
import { LedgerError } from '../../../../../src/core/errors';

test('AGENT_LEDGER_CHANGED_MARKS_MS: whole milliseconds, at least 50; anything else is a clear ConfigError', () => {
  assert.equal(changedMarksMsFromEnv({}), undefined);
  assert.equal(changedMarksMsFromEnv({ AGENT_LEDGER_CHANGED_MARKS_MS: ' 300 ' }), 300);
  for (const bad of ['10', '1.5', 'soon', '-5']) {
    assert.throws(
      () => changedMarksMsFromEnv({ AGENT_LEDGER_CHANGED_MARKS_MS: bad }),
      (e: unknown) => LedgerError.is(e, 'ConfigError') && e.message.includes(bad),
    );
  }
});

test('a get_my_task run is watched only when it took the start snapshot; its end stops the watch', async () => {
  const calls: string[] = [];
  let took = true;
  const runs = watchedRuns(
    { beginRun: async (id) => (calls.push(`begin ${id}`), took), endRun: async (id) => void calls.push(`end ${id}`) },
    {
      taskWorkStarted: async (id) => void calls.push(`watch ${id}`),
      changedMarks: { unwatch: (id) => void calls.push(`unwatch ${id}`) },
    },
  );
  await runs.beginRun(1);
  took = false;
  await runs.beginRun(2);
  await runs.endRun(1);
  assert.deepEqual(calls, ['begin 1', 'watch 1', 'begin 2', 'unwatch 1', 'end 1']);
});
