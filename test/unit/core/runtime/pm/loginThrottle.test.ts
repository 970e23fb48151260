// Wrong passkeys are throttled per connection and slowed per agent, on both engines, with the
// counts in the ledger so every server process (one per client) sees the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LedgerEngine } from '../../../../../src/core/ports/store';
import type { AgentDefinition } from '../../../../../src/core/agents/agentModel';
import type { AgentDirectory } from '../../../../../src/core/runtime/pm/projectRows';
import { ProjectService } from '../../../../../src/core/runtime/pm/projectService';
import { AgentRuntimeService } from '../../../../../src/core/runtime/pm/agentRuntimeService';
import { LoginThrottle } from '../../../../../src/core/runtime/pm/loginThrottle';
import { hashSessionToken } from '../../../../../src/core/runtime/pm/passkey';
import { defaultLimits } from '../../../../../src/core/limits/ledgerLimits';
import { LedgerError } from '../../../../../src/core/errors';
import { engineCases } from '../../../store/engines/engineKit';
import { tempDir } from '../../../../helpers/tmp';

const agent = (name: string): AgentDefinition => ({
  name,
  description: `${name} agent`,
  client: 'claude-code',
  model: null,
  scope: { read: ['**'], write: ['**'], exclude: [] },
  permissions: { level: 'commit', commands: [], never: [] },
  config: {},
  promptContent: `You are ${name}.`,
  file: `.agent-ledger/agents/${name}.yaml`,
});

const directory = (defs: AgentDefinition[]): AgentDirectory => ({
  current: () => ({ agents: defs, problems: [] }),
  lookup: (name) => {
    const d = defs.find((a) => a.name === name);
    if (!d) throw new LedgerError('AgentNotFound', name);
    return d;
  },
});

const passkey = 'the right passkey, long enough';
const isUnauthorized = (e: unknown) => LedgerError.is(e, 'Unauthorized') && e.message === 'Invalid agent_id or passkey';
const throttled = (e: unknown): number => {
  assert.ok(LedgerError.is(e, 'Throttled'), `expected Throttled, got ${String(e)}`);
  assert.equal(e.toJSON().code, -32013);
  const after = e.data?.retry_after_ms;
  assert.equal(typeof after, 'number');
  return after as number;
};

async function refusal(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  assert.fail('the login was expected to be refused');
}

for (const engineCase of engineCases) {
  test(
    `login throttle on ${engineCase.name}: a guessing connection waits, doubling; the agent logs in from elsewhere; a ticket never waits; two processes share the counts`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        let clock = Date.parse('2026-01-01T10:00:00Z');
        const now = () => new Date(clock);
        const workspace = tempDir();
        const agents = directory([agent('coder'), agent('nokey')]);
        const runtimeOn = (engine: LedgerEngine) =>
          new AgentRuntimeService(engine, workspace, agents, now, {
            scryptParams: { N: 1024, r: 8, p: 1, keylen: 32 },
            // A small agent delay keeps the test quick; the rule is the same.
            loginLimits: { ...defaultLimits, loginAgentDelayStepMs: 1, loginAgentMaxDelayMs: 5 },
          });
        const first = await ledger.open();
        const a = runtimeOn(first);
        const b = runtimeOn(await ledger.open()); // another server process on the same ledger
        const projects = new ProjectService(first, workspace, agents, now);
        await projects.create({ name: 'web', workingDirectory: '.' });
        await projects.addAgent('web', 'coder');
        await projects.addAgent('web', 'nokey');
        await a.setPasskey('coder', passkey);

        // Five wrong tries are free, whatever was wrong: the passkey, the agent, a missing passkey.
        const guesser = 'connection:attacker/eve/4242';
        for (const [agentId, key] of [
          ['coder', 'wrong passkey 1'],
          ['ghost', 'wrong passkey 2'],
          ['nokey', 'wrong passkey 3'],
          ['coder', 'wrong passkey 4'],
          ['coder', 'wrong passkey 5'],
        ])
          assert.ok(isUnauthorized(await refusal(a.authenticate(agentId, key, 'web', guesser))));
        // The sixth waits 1 s — in the other process too, and even with the right passkey.
        assert.equal(throttled(await refusal(b.authenticate('coder', 'wrong passkey 6', 'web', guesser))), 1000);
        assert.equal(throttled(await refusal(a.authenticate('coder', passkey, 'web', guesser))), 1000);
        clock += 400;
        assert.equal(throttled(await refusal(a.authenticate('coder', 'x', 'web', guesser))), 600);
        clock += 600;
        assert.ok(isUnauthorized(await refusal(b.authenticate('coder', 'wrong passkey 6', 'web', guesser))));
        // Then 2 s, 4 s, …
        assert.equal(throttled(await refusal(a.authenticate('coder', 'x', 'web', guesser))), 2000);
        clock += 2000;
        assert.ok(isUnauthorized(await refusal(a.authenticate('coder', 'wrong passkey 7', 'web', guesser))));
        assert.equal(throttled(await refusal(a.authenticate('coder', 'x', 'web', guesser))), 4000);

        // Meanwhile the agent itself, from its own connection, logs in at once.
        const session = await b.authenticate('coder', passkey, 'web', 'connection:laptop/dev/1234');
        assert.ok(session.session_token.length > 20);

        // A runner's single-use ticket is not throttled (the guesser's connection is still waiting).
        const ticket = 'a-single-use-launch-ticket';
        await first.write((tx) =>
          tx.run(
            "INSERT INTO agent_instances (agent, project_id, status, updated_at, ticket_hash, ticket_expires_at) VALUES ('nokey', 1, 'running', ?, ?, ?)",
            [now().toISOString(), hashSessionToken(ticket), new Date(clock + 60_000).toISOString()],
          ),
        );
        assert.equal((await a.authenticateWithTicket('nokey', ticket, 'web')).agent_name, 'nokey');

        // The waits are capped, and an hour without wrong passkeys forgets them.
        clock += 61 * 60_000;
        assert.ok(isUnauthorized(await refusal(a.authenticate('coder', 'wrong again', 'web', guesser))));
        assert.ok(isUnauthorized(await refusal(a.authenticate('coder', 'and again', 'web', guesser))));
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `login throttle on ${engineCase.name}: an agent guessed at from many connections is answered later, never refused`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const clock = Date.parse('2026-01-01T10:00:00Z');
        const engine = await ledger.open();
        const delays: number[] = [];
        const throttle = new LoginThrottle(
          engine,
          () => clock,
          defaultLimits,
          async (ms) => {
            delays.push(ms);
          },
        );
        // 30 wrong passkeys for coder from 30 connections: none of them waits on its own.
        for (let i = 0; i < 30; i++) {
          await throttle.admit('coder', `connection:m/u/${i}`);
          await throttle.failed('coder', `connection:m/u/${i}`);
        }
        // The first 10 cost nothing; beyond, 250 ms each, capped at 5 s.
        assert.deepEqual(
          delays,
          [
            250, 500, 750, 1000, 1250, 1500, 1750, 2000, 2250, 2500, 2750, 3000, 3250, 3500, 3750, 4000, 4250, 4500,
            4750,
          ],
        );
        delays.length = 0;
        await throttle.admit('coder', 'connection:laptop/dev/1');
        assert.deepEqual(delays, [5000], 'the real agent is delayed, not refused');
        await throttle.admit('tester', 'connection:laptop/dev/1');
        assert.deepEqual(delays, [5000], 'another agent is not slowed');
      } finally {
        await ledger.dispose();
      }
    },
  );
}
