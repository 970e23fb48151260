import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProcessError } from '../../../src/core/runtime/processErrors';
import { checkLiveness } from '../../../src/core/runtime/liveness';
import { parseProcStat, parsePsStatLstart, probeProcess } from '../../../src/processes/processIdentity';
import { ProcessSupervisor } from '../../../src/processes/processSupervisor';
import { alive, childSpec, supervisor, waitForLine } from './supervisorFixture';

test('the pure check: same start time is running, another is a reused pid, no process or a zombie is gone', () => {
  const record = { startToken: 'linux:boot-1:4242' };
  assert.equal(checkLiveness(record, { startToken: 'linux:boot-1:4242', zombie: false }), 'running');
  assert.equal(checkLiveness(record, { startToken: 'linux:boot-1:9999', zombie: false }), 'reused');
  assert.equal(
    checkLiveness(record, { startToken: 'linux:boot-2:4242', zombie: false }),
    'reused',
    'same ticks after a reboot is another process',
  );
  assert.equal(checkLiveness(record, null), 'gone');
  assert.equal(checkLiveness(record, { startToken: 'linux:boot-1:4242', zombie: true }), 'gone');
  assert.equal(checkLiveness({ startToken: null }, { startToken: 'x', zombie: false }), 'unknown');
});

test('/proc/<pid>/stat and ps output parse, command names with spaces and parentheses included', () => {
  const stat =
    '4321 (node (worker) x) S 1 4321 4321 0 -1 4194560 1504 0 0 0 3 1 0 0 20 0 11 0 987654 1234567 2345 18446744073709551615';
  assert.deepEqual(parseProcStat(stat), { state: 'S', startTicks: '987654' });
  assert.deepEqual(parseProcStat('12 (a) Z 1 12 12 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 0 0'), {
    state: 'Z',
    startTicks: '55',
  });
  assert.equal(parseProcStat('garbage'), null);
  assert.deepEqual(parsePsStatLstart('Ss   Mon Jan  6 10:00:00 2025'), {
    zombie: false,
    lstart: 'Mon Jan 6 10:00:00 2025',
  });
  assert.deepEqual(parsePsStatLstart('Z+   Tue Feb 11 09:05:03 2025\n'), {
    zombie: true,
    lstart: 'Tue Feb 11 09:05:03 2025',
  });
  assert.equal(parsePsStatLstart(''), null);
});

test('a restarted supervisor tells a still-running process from a reused pid and stops it only when it is the same', async () => {
  const first = supervisor();
  const spec = childSpec('ignore-term', [], { labels: { agent: 'coder', project: 'p1' } });
  const proc = await first.start(spec);
  await waitForLine(proc.record.logFile, 'ready');
  assert.ok(proc.record.startToken, 'the start time was read at spawn');

  // A new supervisor (the runner after a restart) knows only the log folder and the id.
  const restarted = new ProcessSupervisor();
  const record = await restarted.readRecord(spec.logDir, spec.id);
  assert.ok(record);
  assert.equal(record.pid, proc.pid);
  assert.deepEqual(record.labels, { agent: 'coder', project: 'p1' });
  assert.deepEqual(
    (await restarted.listRecords(spec.logDir)).map((r) => r.id),
    [spec.id],
  );
  assert.equal(await restarted.checkRecord(record), 'running');
  await assert.rejects(
    restarted.start(spec),
    (ex) => ProcessError.is(ex, 'duplicateId'),
    'no second instance of a process still running',
  );

  const reused = { ...record, startToken: `${record.startToken}-other` };
  assert.equal(await restarted.checkRecord(reused), 'reused');
  assert.equal(await restarted.stopRecorded(reused, { graceMs: 100 }), 'reused');
  assert.ok(await alive(proc.pid), 'a pid that may belong to someone else is never signalled');

  assert.equal(await restarted.stopRecorded(record, { graceMs: 300 }), 'running');
  const exit = await proc.exited;
  assert.equal(exit.signal, 'SIGKILL', 'SIGTERM was ignored, so the grace period ended in SIGKILL');
  assert.equal(await restarted.checkRecord(record), 'gone');
  const ended = await restarted.readRecord(spec.logDir, spec.id);
  assert.equal(ended?.exit?.signal, 'SIGKILL', 'the record now carries the exit');
  assert.equal(await restarted.checkRecord(ended!), 'gone');
});

test('a dead pid is gone', async () => {
  const proc = await supervisor().start(childSpec('exit', ['0']));
  const exit = await proc.exited;
  assert.equal(exit.exitCode, 0);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(await probeProcess(proc.pid).then((p) => (p && !p.zombie ? 'alive' : 'gone')), 'gone');
  const { exit: _exit, ...unfinished } = proc.record;
  assert.equal(await new ProcessSupervisor().checkRecord(unfinished), 'gone');
});
