import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import { pmWorld, PASSKEY } from './pmHelpers';

/**
 * Guessing an agent's passkey over MCP (`npm run test:pg` runs it on PostgreSQL too): the guessing
 * connection gets a few tries, then a coded Throttled answer with retry_after_ms and no passkey
 * check; the agent, from its own connection, still logs in.
 */
test('wrong passkeys from one connection are throttled with retry_after_ms; the agent logs in from another', async () => {
  const { repo, c } = await pmWorld();
  const other = await connect(repo, ['--enable-pm']);
  try {
    let checked = 0;
    const waits: number[] = [];
    for (let i = 0; i < 40; i++) {
      const error = await c.fail('authenticate', {
        agent_id: 'coder',
        passkey: `wrong passkey ${i}`,
        project_id: 'web',
      });
      if (error.reason === 'Unauthorized') {
        assert.equal(error.message, 'Invalid agent_id or passkey');
        checked++;
        continue;
      }
      assert.equal(error.reason, 'Throttled', error.message);
      assert.equal(error.code, -32013);
      assert.equal(error.data?.error, 'Too many failed logins from this connection');
      waits.push(Number(error.data?.retry_after_ms));
    }
    assert.ok(checked >= 5 && checked <= 6, `${checked} of 40 wrong passkeys were checked`);
    assert.ok(waits.length >= 34 && waits.every((ms) => ms > 0 && ms <= 2000), JSON.stringify(waits.slice(0, 5)));
    // The right passkey from the guessing connection waits too: it is the connection that is throttled…
    assert.equal(
      (await c.fail('authenticate', { agent_id: 'coder', passkey: PASSKEY, project_id: 'web' })).reason,
      'Throttled',
    );
    // …not the agent.
    const auth = await other.call<{ agent_name: string }>('authenticate', {
      agent_id: 'coder',
      passkey: PASSKEY,
      project_id: 'web',
    });
    assert.equal(auth.agent_name, 'coder');
  } finally {
    await other.close();
    await c.close();
  }
});
