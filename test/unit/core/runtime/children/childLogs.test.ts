// Reading a child's log by seq, and the mark that lets a follower read only what is new.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readChildLog, toChildLogEntry } from '../../../../../src/core/runtime/children/childLogs';
import type { LogEntry } from '../../../../../src/core/ports/processes';
import { encodeEntry } from '../../../../../src/processes/logFile';
import { logReader } from '../../../../../src/processes/logReader';
import { tempDir } from '../../../../helpers/tmp';

const entry = (seq: number, message: string, stream: LogEntry['stream'] = 'stdout'): LogEntry => ({
  seq,
  ts: 1000 + seq,
  stream,
  message,
});

test('readChildLog: entries after a seq, bounded, and a mark that skips what was read', async () => {
  const file = path.join(tempDir(), 'c.log');
  fs.writeFileSync(file, [1, 2, 3, 4, 5].map((n) => encodeEntry(entry(n, `line ${n}`))).join(''));
  const all = await readChildLog(logReader, file, 0, 100);
  assert.deepEqual(
    all.entries.map((e) => e.seq),
    [1, 2, 3, 4, 5],
  );
  assert.deepEqual(all.mark, { seq: 5, offset: fs.statSync(file).size });
  const some = await readChildLog(logReader, file, 1, 2);
  assert.deepEqual(
    some.entries.map((e) => e.seq),
    [2, 3],
  );
  assert.equal(some.mark, undefined, 'a read cut by its limit leaves no mark');

  fs.appendFileSync(file, encodeEntry(entry(6, 'line 6')) + encodeEntry(entry(7, '{"type":"x"}')) + '{"seq": 8, "ts"');
  // From the mark, only what was written after it is read.
  const fresh = await readChildLog(logReader, file, 5, 100, all.mark);
  assert.deepEqual(
    fresh.entries.map((e) => e.seq),
    [6, 7],
    'only the new complete lines, the torn one waits',
  );
  const older = await readChildLog(logReader, file, 2, 100, fresh.mark);
  assert.deepEqual(
    older.entries.map((e) => e.seq),
    [3, 4, 5, 6, 7],
    'a mark past from_seq is not used',
  );

  const shaped = toChildLogEntry(entry(7, '{"type":"x"}'), {
    child_id: 'c',
    run_id: 'r',
    op_id: null,
    job_id: null,
    graph_id: null,
    node_id: null,
  });
  assert.deepEqual(shaped, {
    seq: 7,
    ts: 1007,
    stream: 'stdout',
    message: '{"type":"x"}',
    jobId: null,
    runId: 'r',
    opId: null,
    graphId: null,
    nodeId: null,
    childId: 'c',
    raw: '{"type":"x"}',
    parsed: { type: 'x' },
  });
  const meta = toChildLogEntry(
    { ...entry(8, 'started', 'meta'), data: { pid: 1 } },
    { child_id: 'c', run_id: null, op_id: null, job_id: null, graph_id: null, node_id: null },
  );
  assert.equal(meta.raw, null);
  assert.deepEqual(meta.parsed, { pid: 1 });
});
