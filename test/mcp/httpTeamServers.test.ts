// Several `agent-ledger mcp serve --http` processes on one PostgreSQL team ledger, as a team runs
// replicas behind a load balancer: whatever one server knows (a write, a retry key, a token, a
// caller's write quota) lives in the database, so every other server knows it too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempRepo } from '../helpers/tmp';
import { cli, cliJson } from '../helpers/cli';
import { makeToken, startHttpServer, structured, toolError, v1HttpClient, v2HttpClient } from '../helpers/httpServer';
import type { HttpLedgerServer } from '../helpers/httpServer';
import { readLedger } from '../helpers/ledgerRows';
import { createTestDatabase, pgPassword, pgSkip } from '../helpers/postgres';
import type { TestDatabase } from '../helpers/postgres';
import { initLedgerDb } from '../../src/store/admin/dbAdmin';

/** Runs `fn` with every CLI call and server of the test on a fresh team database. */
async function onTeamDatabase(fn: (db: TestDatabase) => Promise<void>): Promise<void> {
  const db = await createTestDatabase();
  const saved = { ...process.env };
  Object.assign(process.env, { AGENT_LEDGER_DB: db.url, AGENT_LEDGER_DB_PASSWORD: pgPassword, PGPASSWORD: '' });
  try {
    await initLedgerDb(db.url, { env: { AGENT_LEDGER_DB_PASSWORD: pgPassword } });
    await fn(db);
  } finally {
    process.env = saved;
    await db.drop();
  }
}

async function twoServers(repo: string, args: string[] = [], env?: NodeJS.ProcessEnv): Promise<HttpLedgerServer[]> {
  return Promise.all([0, 1].map(() => startHttpServer(repo, args, { env: env ?? process.env })));
}

test(
  'two HTTP servers on one PostgreSQL ledger: a write through one is read through the other, a retry on the other is the same task, one token works on both',
  { skip: pgSkip, timeout: 180_000 },
  () =>
    onTeamDatabase(async () => {
      const repo = tempRepo();
      const [a, b] = await twoServers(repo);
      assert.notEqual(a.pid, b.pid);
      // Tokens made once, with the CLI, against the database: no server is told about them.
      const coder = makeToken(repo, 'agent', ['--agent', 'coder']);
      const alice = makeToken(repo, 'person', ['--name', 'alice']);
      const onA = await v2HttpClient(a.url, coder);
      const onB = await v2HttpClient(b.url, coder);
      const aliceOnB = await v1HttpClient(b.url, alice);
      try {
        const created = structured<{ id: string; title: string; idempotent?: boolean }>(
          await onA.callTool({
            name: 'task_create',
            arguments: { title: 'Shared login page', idempotency_key: 'create-login-1' },
          }),
        );
        assert.equal(created.idempotent, false);
        const seen = structured<{ id: string; title: string }>(
          await onB.callTool({ name: 'task_get', arguments: { id: created.id } }),
        );
        assert.equal(seen.title, 'Shared login page', 'the other server reads the write at once');

        // The client's answer was lost and it retries on the other replica: the same task, not a second.
        const retried = structured<{ id: string; idempotent?: boolean }>(
          await onB.callTool({
            name: 'task_create',
            arguments: { title: 'Shared login page', idempotency_key: 'create-login-1' },
          }),
        );
        assert.equal(retried.id, created.id);
        assert.equal(retried.idempotent, true);
        // The same key with other arguments is refused on that server too.
        const misuse = toolError(
          await onB.callTool({
            name: 'task_create',
            arguments: { title: 'Another page', idempotency_key: 'create-login-1' },
          }),
        );
        assert.equal(misuse.reason, 'ValidationError');
        const titles = await readLedger(repo, (db) => db.all<{ title: string }>('SELECT title FROM tasks'));
        assert.deepEqual(
          titles.map((t) => t.title),
          ['Shared login page'],
        );

        // The other way round, as a person on the other revision: written through B, read through A.
        structured(
          await aliceOnB.callTool({
            name: 'task_update',
            arguments: { id: created.id, description: 'Written through the second server' },
          }),
        );
        const back = structured<{ description: string }>(
          await onA.callTool({ name: 'task_get', arguments: { id: created.id } }),
        );
        assert.equal(back.description, 'Written through the second server');

        // A token revoked once is refused by both servers, without a restart.
        const coderId = cliJson<{ tokens: { id: string; name: string }[] }>([
          'token',
          'list',
          '--workspace',
          repo,
        ]).tokens.find((t) => t.name === 'coder')!.id;
        const revoked = cli(['token', 'revoke', coderId, '--workspace', repo]);
        assert.equal(revoked.code, 0, revoked.stderr);
        for (const server of [a, b]) {
          const res = await fetch(server.url, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${coder}`,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
          });
          assert.equal(res.status, 401, `server ${server.pid} refuses the revoked token`);
        }
      } finally {
        await Promise.all([onA.close(), onB.close(), aliceOnB.close()].map((p) => p.catch(() => undefined)));
        await Promise.all([a.stop(), b.stop()]);
      }
    }),
);

test(
  'the write quota is per token across two HTTP servers: one token spreading its writes over both is stopped at one quota, another token writes on',
  { skip: pgSkip, timeout: 180_000 },
  () =>
    onTeamDatabase(async () => {
      const repo = tempRepo();
      const env = { ...process.env, AGENT_LEDGER_LIMITS: 'quotaBytes=300KiB' };
      const [a, b] = await twoServers(repo, ['--enable-orchestrator'], env);
      const filler = makeToken(repo, 'agent', ['--agent', 'coder']);
      const steady = makeToken(repo, 'agent', ['--agent', 'reviewer']);
      const bob = makeToken(repo, 'person', ['--name', 'bob']);
      const fillerOn = [await v2HttpClient(a.url, filler), await v2HttpClient(b.url, filler)];
      const steadyOnA = await v2HttpClient(a.url, steady);
      const bobOnB = await v2HttpClient(b.url, bob);
      try {
        let written = 0;
        let refusal: { code: number; reason: string; data?: Record<string, unknown> } | undefined;
        // Alternating servers: a quota kept per process would let it write twice as much.
        for (let n = 0; n < 60 && !refusal; n++) {
          const result = await fillerOn[n % 2].callTool({
            name: 'bb_set',
            arguments: { key: `fill:${n}`, value: 'v'.repeat(20_000) },
          });
          if (!result.isError) written++;
          else refusal = toolError(result);
        }
        assert.ok(refusal, 'the filling token was stopped');
        assert.equal(refusal.code, -32012);
        assert.equal(refusal.reason, 'QuotaExceeded');
        assert.equal(refusal.data?.error, 'E-QUOTA');
        assert.equal(refusal.data?.caller, 'agent:coder', 'charged to the token’s identity, not to a process');
        assert.ok(
          written >= 5 && written <= 8,
          `${written} writes of 20,000 characters over both servers fitted in one 300 KiB quota`,
        );
        // Refused on both servers now, whichever it tries.
        for (const client of fillerOn)
          assert.equal(
            toolError(
              await client.callTool({ name: 'bb_set', arguments: { key: 'fill:again', value: 'v'.repeat(20_000) } }),
            ).reason,
            'QuotaExceeded',
          );
        // The other tokens, on the same two processes, write on.
        for (let n = 0; n < 5; n++)
          structured(
            await steadyOnA.callTool({ name: 'bb_set', arguments: { key: `steady:${n}`, value: 'v'.repeat(20_000) } }),
          );
        structured(
          await bobOnB.callTool({ name: 'bb_set', arguments: { key: 'bob:note', value: 'v'.repeat(20_000) } }),
        );
        const kept = structured<{ entries: unknown[] }>(
          await steadyOnA.callTool({ name: 'bb_query', arguments: { key_prefix: 'fill', limit: 100 } }),
        );
        assert.equal(kept.entries.length, written, 'nothing of a refused call was written');
        const counters = await readLedger(repo, (db) =>
          db.all<{ scope: string }>("SELECT scope FROM usage_counters WHERE scope LIKE 'quota:%' ORDER BY scope"),
        );
        const names = counters.map((c) => c.scope);
        assert.ok(names.includes('quota:agent:coder') && names.includes('quota:agent:reviewer'), names.join(', '));
        assert.ok(
          names.some((n) => /^quota:token:\d+$/.test(n)),
          `a person's token is charged as that token: ${names.join(', ')}`,
        );
        assert.ok(!names.some((n) => n.startsWith('quota:connection:')), 'no write was charged to a server process');
      } finally {
        await Promise.all([...fillerOn, steadyOnA, bobOnB].map((c) => c.close().catch(() => undefined)));
        await Promise.all([a.stop(), b.stop()]);
      }
    }),
);
