import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DecisionTickets } from '../../../../src/mcp/apps/decisionTickets';

test('a decision ticket is single-use, bound to its pipeline and checkpoint, and expires', () => {
  const tickets = new DecisionTickets(1000);
  const t = tickets.issue('.specs/a', 'checkpoint-a', 0);
  assert.equal(tickets.redeem(t, '.specs/a', 'checkpoint-b', 10), false, 'another checkpoint (and now spent)');
  const u = tickets.issue('.specs/a', 'checkpoint-a', 0);
  assert.equal(tickets.redeem('guessed', '.specs/a', 'checkpoint-a', 10), false);
  assert.equal(tickets.redeem(u, '.specs/a', 'checkpoint-a', 10), true);
  assert.equal(tickets.redeem(u, '.specs/a', 'checkpoint-a', 20), false, 'single use');
  const v = tickets.issue('.specs/a', 'checkpoint-a', 0);
  assert.equal(tickets.redeem(v, '.specs/a', 'checkpoint-a', 5000), false, 'expired');
});
