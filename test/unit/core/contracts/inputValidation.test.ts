// The one input check of every tool: what a client adds on its own is dropped (an allow-list),
// anything else unknown is still refused with the field named; the per-field messages of the
// editor's input boxes are the tools' own (one contract, one check).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { LedgerError } from '../../../../src/core/errors';
import { fieldIssue, parseInput } from '../../../../src/core/contracts/inputValidation';
import { memoryAddInput } from '../../../../src/core/memory/memoryContracts';
import { sessionEndInput } from '../../../../src/core/sessions/sessionContracts';
import { taskCreateInput } from '../../../../src/core/tasks/taskContracts';

const schema = z.strictObject({ id: z.number(), note: z.string().optional() });

test('a boolean wait_for_previous (Gemini CLI adds it to every call) is dropped, not refused', () => {
  assert.deepEqual(parseInput('task_get', schema, { id: 3, wait_for_previous: true }), { id: 3 });
  assert.deepEqual(parseInput('task_get', schema, { id: 3, wait_for_previous: false }), { id: 3 });
});

test('wait_for_previous of another type, or any other unknown field, is refused with its name', () => {
  for (const input of [
    { id: 3, wait_for_previous: 'yes' },
    { id: 3, wait_for_next: true },
  ]) {
    assert.throws(
      () => parseInput('task_get', schema, input),
      (err: unknown) =>
        LedgerError.is(err, 'ValidationError') &&
        /unknown field "wait_for_(previous|next)"/.test(err.message) &&
        err.message.includes('accepted: id, note'),
    );
  }
});

test('a tool that declares wait_for_previous itself gets it', () => {
  const own = z.strictObject({ wait_for_previous: z.boolean() });
  assert.deepEqual(parseInput('own', own, { wait_for_previous: true }), { wait_for_previous: true });
});

test('the caller’s object is left as it was', () => {
  const input = { id: 3, wait_for_previous: true };
  parseInput('task_get', schema, input);
  assert.deepEqual(input, { id: 3, wait_for_previous: true });
});

test('one field checked alone says what parseInput says about it', () => {
  assert.equal(fieldIssue(taskCreateInput, 'title', '   '), 'title: must not be empty');
  assert.equal(fieldIssue(taskCreateInput, 'title', 'Fix it'), undefined);
  assert.equal(fieldIssue(taskCreateInput, 'description', undefined), undefined);
  assert.equal(
    fieldIssue(taskCreateInput, 'labels', 'x'.repeat(2001)),
    'labels: is too long (at most 2000 characters)',
  );
  assert.equal(
    fieldIssue(memoryAddInput, 'id', 'a b'),
    'id: must be a plain name of letters, digits, ".", "_" or "-" (it becomes part of the file path)',
  );
  assert.equal(fieldIssue(sessionEndInput, 'exitCode', 'zero'), 'exitCode: expected number (got "zero")');
  assert.equal(fieldIssue(sessionEndInput, 'exitCode', 2.5), 'exitCode: expected int (got 2.5)');
  // The same words as the whole-input check the MCP tool and the CLI make.
  assert.throws(
    () => parseInput('task_create', taskCreateInput, { title: '   ' }),
    /invalid arguments for task_create: title: must not be empty/,
  );
  assert.throws(() => fieldIssue(taskCreateInput, 'nope', 1), /no field "nope"/);
});
