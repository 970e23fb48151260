import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plural } from '../../../src/core/format';

test('plural: one count, one way, everywhere', () => {
  assert.equal(plural(1, 'decision'), '1 decision');
  assert.equal(plural(0, 'decision'), '0 decisions');
  assert.equal(plural(2, 'milestone'), '2 milestones');
  assert.equal(plural(1, 'entry', 'entries'), '1 entry');
  assert.equal(plural(3, 'entry', 'entries'), '3 entries');
});
