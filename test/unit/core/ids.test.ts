import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseId, notFound } from '../../../src/core/ids';
import { LedgerError } from '../../../src/core/errors';

test('one resolver accepts every shape of a task id', () => {
  for (const ref of [12, '12', '#12', 'task-12', 'task_12', 'task:12', 'task://12', 'TASK-12', ' task-12 ']) {
    assert.equal(parseId('task', ref), 12, JSON.stringify(ref));
  }
  assert.equal(parseId('workflow', 'wf-3'), 3);
  assert.equal(parseId('workflow', 'workflow://3'), 3);
});

test('wrong shapes are refused with the accepted shape in the message', () => {
  for (const ref of ['wf-12', 'abc', '', 0, -1, 1.5, 'task-', null, {}]) {
    assert.throws(
      () => parseId('task', ref),
      (err: unknown) => LedgerError.is(err, 'ValidationError') && /like "task-12" or 12/.test(err.message),
      JSON.stringify(ref),
    );
  }
});

test('not found errors carry seed 002 codes', () => {
  assert.equal(notFound('task', 5).toJSON().code, -32001);
  assert.equal(notFound('session', 5).toJSON().code, -32003);
  assert.equal(notFound('workflow', 'wf-5').toJSON().code, -32009);
});
