// The per-field messages of the editor's input boxes are the tools' own (one contract, one check).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldIssue, parseInput } from '../../../../src/core/contracts/inputValidation';
import { memoryAddInput } from '../../../../src/core/memory/memoryContracts';
import { sessionEndInput } from '../../../../src/core/sessions/sessionContracts';
import { taskCreateInput } from '../../../../src/core/tasks/taskContracts';

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
