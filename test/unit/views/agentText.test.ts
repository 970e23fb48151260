import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sessionCountText } from '../../../src/views/agentText';

test("an agent row's count: running and stale apart, nothing when none runs", () => {
  assert.equal(sessionCountText({ running: 2, stale: 0 }), '2 running');
  assert.equal(sessionCountText({ running: 1, stale: 1 }), '1 running, 1 stale');
  assert.equal(sessionCountText({ running: 0, stale: 3 }), '3 stale');
  assert.equal(sessionCountText({ running: 0, stale: 0 }), null);
  assert.equal(sessionCountText(undefined), null);
});
