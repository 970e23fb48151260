import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempRepo } from '../helpers/tmp';
import { makeToken, startHttpServer, structured, v2HttpClient } from '../helpers/httpServer';
import type { HttpLedgerServer } from '../helpers/httpServer';
import { readLedger } from '../helpers/ledgerRows';
import { testStore } from '../helpers/testLedger';

const clients = 20;
const writesEach = 200;

/**
 * Twenty agents on one HTTP server, two hundred writes each, and the server killed with SIGKILL
 * while writes are in flight, then started again: every write a client saw acknowledged is in
 * the ledger exactly once, and no write is there twice. (`npm run test:pg` runs it on PostgreSQL.)
 */
test(`${clients} clients × ${writesEach} writes on one HTTP server, kill -9 mid-stream and restart: nothing acknowledged lost, nothing doubled (${testStore})`, async () => {
  const repo = tempRepo();
  const token = makeToken(repo, 'agent', ['--agent', 'coder']);
  let server: HttpLedgerServer = await startHttpServer(repo);
  let back: Promise<HttpLedgerServer> | undefined;
  let acknowledged = 0;
  const acked = new Set<string>();
  const unacked = new Set<string>();
  const killAt = Math.floor((clients * writesEach) / 2);
  let killed = false;

  const worker = async (c: number): Promise<void> => {
    let client = await v2HttpClient(server.url, token);
    for (let w = 0; w < writesEach; w++) {
      const title = `c${c}-w${w}`;
      try {
        const created = structured<{ title: string }>(
          await client.callTool({ name: 'task_create', arguments: { title } }),
        );
        assert.equal(created.title, title);
        acked.add(title);
        acknowledged += 1;
        if (acknowledged === killAt && !killed) {
          killed = true;
          // Mid-stream: the other nineteen clients have writes in flight right now.
          back = server.kill9().then(() => startHttpServer(repo));
        }
      } catch {
        // Not acknowledged: it may or may not have committed. Never retried (a retry could double it).
        unacked.add(title);
        await client.close().catch(() => undefined);
        server = await (back ?? Promise.resolve(server));
        client = await v2HttpClient(server.url, token);
      }
    }
    await client.close();
  };
  try {
    await Promise.all(Array.from({ length: clients }, (_, c) => worker(c)));
    assert.ok(killed, 'the server was killed mid-stream');
    const rows = await readLedger(repo, (db) =>
      db.all<{ title: string; n: number }>('SELECT title, COUNT(*) AS n FROM tasks GROUP BY title'),
    );
    const count = new Map(rows.map((r) => [r.title, Number(r.n)]));
    const lost = [...acked].filter((t) => count.get(t) !== 1);
    const doubled = rows.filter((r) => Number(r.n) > 1).map((r) => r.title);
    const unknown = rows.map((r) => r.title).filter((t) => !acked.has(t) && !unacked.has(t));
    assert.deepEqual(lost, [], 'every acknowledged write is there exactly once');
    assert.deepEqual(doubled, [], 'no write twice');
    assert.deepEqual(unknown, [], 'nothing nobody wrote');
    assert.equal(acked.size + unacked.size, clients * writesEach);
    assert.ok(
      acked.size >= clients * writesEach - 2 * clients,
      `few writes were in flight at the kill (${unacked.size})`,
    );
    console.error(
      `# ${acked.size} acknowledged, ${unacked.size} in flight at the kill (${[...unacked].filter((t) => count.get(t) === 1).length} of them committed)`,
    );
  } finally {
    await server.stop();
  }
});
