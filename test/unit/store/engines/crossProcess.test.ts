// Several processes (for PostgreSQL, several "machines": processes with their own pools and
// listeners) on one ledger, on both engines: wake-ups, nothing lost or doubled, kill -9.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { percentile } from '../../../../bench/lib/report';
import { addWorkflow, engineCases, lines, spawnWriter, workflowNames } from './engineKit';

const now = (): number => performance.timeOrigin + performance.now();

for (const c of engineCases) {
  describe(`${c.name} engine across processes`, { skip: c.skip }, () => {
    test('waitForChange wakes on another process’s write in well under 100 ms (p50)', async () => {
      const ledger = await c.ledger();
      const engine = await ledger.open();
      const child = spawnWriter(ledger, ['ping']);
      const pending: ((line: string) => void)[] = [];
      let ready!: () => void;
      const started = new Promise<void>((r) => (ready = r));
      const closed = lines(child, (line) => (line === 'ready' ? ready() : pending.shift()?.(line)));
      try {
        await started;
        const latencies: number[] = [];
        for (let i = 0; i < 15; i++) {
          const woke = engine.waitForChange(engine.seq, { timeoutMs: 10_000 }).then((r) => ({ ...r, at: now() }));
          const done = new Promise<string>((r) => pending.push(r));
          child.stdin.write('go\n');
          const [result, line] = await Promise.all([woke, done]);
          const [, seq, before] = line.split(' ').map(Number);
          assert.equal(result.timedOut, false);
          assert.ok(result.seq >= seq, `woken with the writer's seq ${seq} (got ${result.seq})`);
          // From the moment the other process started its write (an upper bound of the wake-up).
          latencies.push(result.at - before);
        }
        const p50 = percentile(latencies, 50);
        assert.ok(
          p50 < 100,
          `wake-up p50 ${p50.toFixed(1)} ms (all: ${latencies.map((l) => l.toFixed(0)).join(', ')})`,
        );
      } finally {
        child.stdin.end();
        await closed;
        await ledger.dispose();
      }
    });

    test('3 machines × 3 processes × 200 writes: none lost, none doubled, and an events cursor never skips or repeats', async () => {
      const ledger = await c.ledger();
      const tail = await ledger.open();
      const acknowledged: string[] = [];
      const seen: number[] = [];
      let cursor = 0;
      let writing = true;
      // Follows the events table by seq the way resources_watch will, while the writers run.
      const follow = (async () => {
        while (
          writing ||
          cursor <
            (await tail.read(async (db) => (await db.get<{ s: number }>('SELECT MAX(seq) AS s FROM events'))?.s ?? 0))
        ) {
          const rows = await tail.read((db) =>
            db.all<{ seq: number }>('SELECT seq FROM events WHERE seq > ? ORDER BY seq LIMIT 200', [cursor]),
          );
          for (const r of rows) seen.push(r.seq);
          if (rows.length) cursor = rows[rows.length - 1].seq;
          else await tail.waitForChange(tail.seq, { timeoutMs: 200 });
        }
      })();
      try {
        const children = [];
        for (let m = 0; m < 3; m++) {
          for (let p = 0; p < 3; p++) {
            const child = spawnWriter(ledger, ['writes', `m${m}-p${p}`, '200']);
            children.push(lines(child, (name) => acknowledged.push(name)));
          }
        }
        const codes = await Promise.all(children);
        assert.deepEqual(codes, Array(9).fill(0));
      } finally {
        writing = false;
        await follow;
      }
      try {
        assert.equal(acknowledged.length, 1800);
        const names = await workflowNames(tail);
        assert.equal(names.length, 1800, 'no write doubled');
        assert.deepEqual(new Set(names), new Set(acknowledged), 'no acknowledged write lost');
        const events = await tail.read((db) => db.all<{ seq: number }>('SELECT seq FROM events ORDER BY seq'));
        assert.equal(events.length, 1800);
        assert.deepEqual(
          seen,
          events.map((e) => e.seq),
          'the cursor saw every event once, in order',
        );
      } finally {
        await ledger.dispose();
      }
    });

    test('kill -9 of a writer in the middle of its transaction: nothing of it is written, the others carry on', async () => {
      const ledger = await c.ledger();
      try {
        const engine = await ledger.open({ lockTimeoutMs: 20_000 });
        await addWorkflow(engine, 'before');
        const child = spawnWriter(ledger, ['hold']);
        let inside!: () => void;
        const entered = new Promise<void>((r) => (inside = r));
        const closed = lines(child, (line) => line === 'inside' && inside());
        await entered;
        child.kill('SIGKILL');
        await closed;
        const started = Date.now();
        await addWorkflow(engine, 'after');
        assert.ok(Date.now() - started < 10_000, 'the dead writer’s lock went with it');
        assert.deepEqual(await workflowNames(engine), ['before', 'after']);
        const fresh = await ledger.open();
        assert.deepEqual(await workflowNames(fresh), ['before', 'after'], 'and a new process sees the same');
      } finally {
        await ledger.dispose();
      }
    });
  });
}
