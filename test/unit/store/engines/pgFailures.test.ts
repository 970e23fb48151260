// The PostgreSQL engine when the server or the network fails: a restart during a write stream,
// and a connection cut right around COMMIT (a real TCP proxy in front of a real server).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { openEngine } from '../../../../src/store/openEngine';
import { PostgresEngine } from '../../../../src/store/postgres/postgresEngine';
import { StoreError } from '../../../../src/store/errors';
import { createTestDatabase, pgEnv, pgSkip } from '../../../helpers/postgres';
import { lines, spawnWriter } from './engineKit';
import type { TestLedger } from './engineKit';
// @ts-expect-error: a plain .mjs script without types
import { restartTestPostgres, startTestPostgres, stopTestPostgres } from '../../../../scripts/testPostgres.mjs';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test(
  'the server restarted during a stream of writes from three processes: no acknowledged write lost, none doubled',
  { skip: pgSkip, timeout: 120_000 },
  async () => {
    // A server of its own: restarting the shared one would cut the other suites' connections.
    const server = await startTestPostgres();
    const url = server.url.replace(/\/postgres$/, '/ledger');
    const env = { ...process.env, AGENT_LEDGER_DB_PASSWORD: server.password };
    try {
      const admin = await openEngine(server.url, { env, migrate: false }).catch((err: unknown) => err);
      assert.ok(StoreError.is(admin, 'notInitialized'));
      const { Client } = await import('pg');
      const c = new Client({
        host: '127.0.0.1',
        port: server.port,
        user: 'ledger_admin',
        password: server.password,
        database: 'postgres',
      });
      await c.connect();
      await c.query('CREATE DATABASE ledger');
      await c.end();
      const ledger: TestLedger = {
        location: url,
        env,
        open: () => openEngine(url, { env, migrate: true }),
        dispose: async () => undefined,
      };
      const reader = await ledger.open();
      const acknowledged: string[] = [];
      const children = [0, 1, 2].map((i) => spawnWriter(ledger, ['writes', `w${i}`, '-1']));
      const done = children.map((child) => lines(child, (name) => acknowledged.push(name)));
      const heard: number[] = [];
      reader.onDidChange(() => heard.push(Date.now()));
      while (acknowledged.length < 30) await sleep(20);
      restartTestPostgres(server, 500);
      const restartedAt = Date.now();
      const atRestart = acknowledged.length;
      while (acknowledged.length < atRestart + 60) await sleep(20);
      for (const child of children) child.kill('SIGTERM');
      await Promise.all(done);
      const names = (await reader.read((db) => db.all<{ name: string }>('SELECT name FROM workflows'))).map(
        (r) => r.name,
      );
      assert.equal(new Set(names).size, names.length, 'no write doubled');
      const stored = new Set(names);
      const lost = acknowledged.filter((n) => !stored.has(n));
      assert.deepEqual(lost, [], 'no acknowledged write lost');
      assert.ok(acknowledged.length >= atRestart + 60, 'the writers carried on after the restart');
      // The writers may finish before the listener is back (it reconnects after 250 ms): give it 3 s.
      for (const until = Date.now() + 3000; !heard.some((t) => t > restartedAt) && Date.now() < until;) await sleep(20);
      assert.ok(
        heard.some((t) => t > restartedAt),
        'the listener came back by itself (or its poll took over): changes still arrive',
      );
      const clock = await reader.read(
        async (db) => (await db.get<{ seq: number }>('SELECT seq FROM ledger_clock'))!.seq,
      );
      const woke = await reader.waitForChange(clock - 1, { timeoutMs: 2000 });
      assert.equal(woke.seq, clock);
      await reader.close();
    } finally {
      stopTestPostgres(server);
    }
  },
);

/** A TCP proxy to the server that cuts the first connection sending the engine's COMMIT, before or after passing it on. */
async function commitCutter(
  port: number,
  mode: 'before' | 'after',
): Promise<{ port: number; cut: () => boolean; close: () => void }> {
  let cut = false;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
    upstream.on('data', (d) => client.write(d));
    upstream.on('close', () => client.destroy());
    client.on('close', () => setTimeout(() => upstream.destroy(), 300));
    client.on('data', (d) => {
      if (!cut && d.includes('ledger_writes') && d.includes('COMMIT')) {
        cut = true;
        if (mode === 'after') upstream.write(d);
        client.destroy();
        if (mode === 'before') upstream.destroy();
        return;
      }
      upstream.write(d);
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return {
    port: (proxy.address() as net.AddressInfo).port,
    cut: () => cut,
    close: () => {
      proxy.close();
      for (const s of sockets) s.destroy();
    },
  };
}

for (const mode of ['after', 'before'] as const) {
  test(
    `the connection cut ${mode} COMMIT reached the server: the write resolves once, exactly one row`,
    { skip: pgSkip },
    async () => {
      const db = await createTestDatabase();
      const direct = new URL(db.url);
      const proxy = await commitCutter(Number(direct.port), mode);
      try {
        const setup = await openEngine(db.url, { env: pgEnv, migrate: true });
        const viaProxy = new URL(db.url);
        viaProxy.port = String(proxy.port);
        const engine = await PostgresEngine.open({ url: viaProxy.toString(), env: pgEnv });
        const id = await engine.write((tx) =>
          tx.insert("INSERT INTO workflows (name, created_at, updated_at) VALUES ('once', 't', 't')"),
        );
        assert.ok(proxy.cut(), 'the proxy cut the connection at COMMIT');
        const rows = await setup.read((db2) => db2.all<{ id: number }>("SELECT id FROM workflows WHERE name = 'once'"));
        assert.deepEqual(
          rows.map((r) => r.id),
          [id],
          mode === 'after'
            ? 'the commit went through: found by its write id, not run again'
            : 'the commit never arrived: run again, once',
        );
        assert.equal(
          engine.seq,
          await setup.read(async (d) => (await d.get<{ seq: number }>('SELECT seq FROM ledger_clock'))!.seq),
        );
        await engine.close();
        await setup.close();
      } finally {
        proxy.close();
        await db.drop();
      }
    },
  );
}

test('a server that does not answer: calls fail with a coded error after the retries', { skip: pgSkip }, async () => {
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const started = Date.now();
  await assert.rejects(
    openEngine(`postgres://ledger_admin@127.0.0.1:${port}/ledger`, { env: pgEnv, retryMs: 600 }),
    (err) => StoreError.is(err, 'unavailable'),
  );
  assert.ok(Date.now() - started >= 150, 'it retried with backoff before giving up');
});
