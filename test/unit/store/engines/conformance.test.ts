// One conformance suite, run against both engines: what the domain may rely on, identically.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StoreError } from '../../../../src/store/errors';
import { addWorkflow, engineCases, workflowNames } from './engineKit';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const c of engineCases) {
  describe(`${c.name} engine`, { skip: c.skip }, () => {
    test('writes and reads; insert returns the new id (RETURNING), run the rows changed; seq counts changing writes', async () => {
      const ledger = await c.ledger();
      try {
        const engine = await ledger.open();
        const seq0 = engine.seq;
        assert.equal(await addWorkflow(engine, 'one'), 1);
        assert.equal(await addWorkflow(engine, 'two'), 2);
        assert.equal(engine.seq, seq0 + 2);
        const eventSeq = await engine.write((tx) =>
          tx.insert("INSERT INTO events (ts, kind, payload) VALUES (?, 'k', '{}') RETURNING seq", ['t']),
        );
        assert.equal(eventSeq, 1);
        const changed = await engine.write((tx) =>
          tx.run('UPDATE workflows SET description = ? WHERE id >= ?', ['d', 1]),
        );
        assert.deepEqual(changed, { changes: 2 });
        const seq1 = engine.seq;
        await engine.write(async (tx) => void (await tx.get('SELECT 1 AS x')));
        await engine.write(async () => undefined);
        assert.equal(engine.seq, seq1, 'a write that changed nothing commits no seq');
        assert.deepEqual(await workflowNames(engine), ['one', 'two']);
        const row = await engine.read((db) =>
          db.get<{ id: number; name: string; n: number }>(
            'SELECT id, name, (SELECT COUNT(*) FROM workflows) AS n FROM workflows WHERE id = ?',
            [2],
          ),
        );
        assert.deepEqual(row, { id: 2, name: 'two', n: 2 });
        assert.equal(await engine.read((db) => db.get('SELECT * FROM workflows WHERE id = ?', [99])), undefined);
        const other = await ledger.open();
        assert.deepEqual(
          await workflowNames(other),
          ['one', 'two'],
          'another engine on the same ledger sees the writes',
        );
        assert.equal(await addWorkflow(other, 'three'), 3, 'and never reuses an id');
        assert.deepEqual(await workflowNames(engine), ['one', 'two', 'three']);
      } finally {
        await ledger.dispose();
      }
    });

    test('an async write that throws after awaiting leaves nothing behind', async () => {
      const ledger = await c.ledger();
      try {
        const engine = await ledger.open();
        await addWorkflow(engine, 'kept');
        const seq = engine.seq;
        await assert.rejects(
          engine.write(async (tx) => {
            await tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [
              'lost',
              't',
              't',
            ]);
            await sleep(20);
            await tx.run("UPDATE workflows SET name = 'renamed' WHERE name = 'kept'");
            throw new Error('changed my mind');
          }),
          /changed my mind/,
        );
        assert.equal(engine.seq, seq);
        assert.deepEqual(await workflowNames(engine), ['kept']);
        // Documented difference: SQLite hands the rolled-back id out again, a PostgreSQL sequence
        // never goes back (ids may have gaps; never rely on them being dense).
        assert.equal(await addWorkflow(engine, 'next'), c.name === 'embedded' ? 2 : 3);
      } finally {
        await ledger.dispose();
      }
    });

    test('a failed statement loses its write: later statements are refused (aborted), the write rejects with the first failure', async () => {
      const ledger = await c.ledger();
      try {
        const engine = await ledger.open();
        await addWorkflow(engine, 'one');
        let later: unknown;
        const attempt = engine.write(async (tx) => {
          await tx
            .run('INSERT INTO workflows (id, name, created_at, updated_at) VALUES (1, ?, ?, ?)', ['dup', 't', 't'])
            .catch(() => undefined);
          later = await tx.get('SELECT 1 AS x').catch((err: unknown) => err);
          return 'swallowed';
        });
        await assert.rejects(attempt, (err) => StoreError.is(err, 'constraint'));
        assert.ok(StoreError.is(later, 'aborted'), `a statement after the failure is refused: ${String(later)}`);
        await assert.rejects(
          engine.write((tx) =>
            tx.run('INSERT INTO tasks (workflow_id, title, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [
              42,
              'x',
              'open',
              't',
              't',
            ]),
          ),
          (err) => StoreError.is(err, 'constraint'),
          'a foreign key to a missing row',
        );
        await assert.rejects(
          engine.read((db) => db.all('SELECT no_such_column FROM workflows')),
          (err) => StoreError.is(err, 'sql'),
        );
        assert.deepEqual(await workflowNames(engine), ['one']);
      } finally {
        await ledger.dispose();
      }
    });

    test('reads in the same process never see a write in progress', async () => {
      const ledger = await c.ledger();
      try {
        const engine = await ledger.open();
        let inside!: () => void;
        const entered = new Promise<void>((r) => (inside = r));
        let finish!: () => void;
        const gate = new Promise<void>((r) => (finish = r));
        const writing = engine.write(async (tx) => {
          await tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [
            'pending',
            't',
            't',
          ]);
          inside();
          await gate;
        });
        await entered;
        let readDone = false;
        const reading = engine
          .read((db) => db.all<{ name: string }>('SELECT name FROM workflows'))
          .then((rows) => {
            readDone = true;
            return rows.map((r) => r.name);
          });
        await sleep(30);
        if (readDone) assert.deepEqual(await reading, [], 'a read that ran during the write saw its state before');
        finish();
        await writing;
        const seen = await reading;
        assert.ok(seen.length === 0 || (seen.length === 1 && seen[0] === 'pending'), `never a half state: ${seen}`);
        assert.deepEqual(await workflowNames(engine), ['pending']);
      } finally {
        await ledger.dispose();
      }
    });

    test('? placeholders beside string literals, quoted identifiers and comments', async () => {
      const ledger = await c.ledger();
      try {
        const engine = await ledger.open();
        await engine.write((tx) =>
          tx.run(
            "INSERT INTO workflows (name, description, created_at, updated_at) VALUES ('it''s ?', ?, ?, ?) -- trailing ?",
            ['why?', 't', 't'],
          ),
        );
        const row = await engine.read((db) =>
          db.get<{ q: string; d: string; v: number }>(
            `SELECT '?' AS q, "description" AS d, /* a ? here */ CAST(? AS INTEGER) AS v FROM workflows WHERE name = ? AND "name" <> '??'`,
            [7, "it's ?"],
          ),
        );
        assert.deepEqual(row, { q: '?', d: 'why?', v: 7 });
      } finally {
        await ledger.dispose();
      }
    });

    test('values come back as the embedded store gives them: numbers for counts, sums and booleans, text compared bytewise', async () => {
      const ledger = await c.ledger();
      try {
        const engine = await ledger.open();
        for (const name of ['b', 'B', 'a', 'A']) await addWorkflow(engine, name);
        const row = await engine.read((db) =>
          db.get<Record<string, unknown>>(
            'SELECT COUNT(*) AS n, SUM(id) AS total, MAX(id) AS top, MIN(id) = 1 AS first, EXISTS (SELECT 1 FROM workflows WHERE id = 9) AS nine FROM workflows',
          ),
        );
        assert.deepEqual(row, { n: 4, total: 10, top: 4, first: 1, nine: 0 });
        const sorted = await engine.read((db) => db.all<{ name: string }>('SELECT name FROM workflows ORDER BY name'));
        assert.deepEqual(
          sorted.map((r) => r.name),
          ['A', 'B', 'a', 'b'],
          'bytewise (COLLATE "C" on PostgreSQL = SQLite BINARY)',
        );
        const quoted = await engine.read((db) =>
          db.get<Record<string, unknown>>('SELECT id AS "workflowId" FROM workflows WHERE id = 1'),
        );
        assert.deepEqual(quoted, { workflowId: 1 }, 'a quoted alias keeps its case on both');
      } finally {
        await ledger.dispose();
      }
    });

    test('NULL ordering and LIKE: where the engines differ, and the spelling that agrees', async () => {
      const ledger = await c.ledger();
      try {
        const engine = await ledger.open();
        await addWorkflow(engine, 'Alpha');
        await engine.write(async (tx) => {
          await tx.run(
            "INSERT INTO tasks (workflow_id, title, status, started_at, created_at, updated_at) VALUES (1, 'late', 'open', '2', 't', 't')",
          );
          await tx.run(
            "INSERT INTO tasks (workflow_id, title, status, started_at, created_at, updated_at) VALUES (1, 'never', 'open', NULL, 't', 't')",
          );
          await tx.run(
            "INSERT INTO tasks (workflow_id, title, status, started_at, created_at, updated_at) VALUES (1, 'early', 'open', '1', 't', 't')",
          );
        });
        const titles = async (sql: string) =>
          (await engine.read((db) => db.all<{ title: string }>(sql))).map((r) => r.title);
        // Documented difference: NULLs sort first ascending in SQLite, last in PostgreSQL.
        const plain = await titles('SELECT title FROM tasks ORDER BY started_at');
        assert.deepEqual(plain, c.name === 'embedded' ? ['never', 'early', 'late'] : ['early', 'late', 'never']);
        // What agrees: say where NULLs go (both engines accept NULLS FIRST / NULLS LAST).
        assert.deepEqual(await titles('SELECT title FROM tasks ORDER BY started_at NULLS FIRST'), [
          'never',
          'early',
          'late',
        ]);
        assert.deepEqual(await titles('SELECT title FROM tasks ORDER BY started_at DESC NULLS LAST'), [
          'late',
          'early',
          'never',
        ]);
        // Documented difference: LIKE ignores ASCII case in SQLite, not in PostgreSQL.
        const like = await engine.read((db) =>
          db.get<{ n: number }>("SELECT COUNT(*) AS n FROM workflows WHERE name LIKE 'alp%'"),
        );
        assert.equal(like?.n, c.name === 'embedded' ? 1 : 0);
        const agreed = await engine.read((db) =>
          db.get<{ n: number }>('SELECT COUNT(*) AS n FROM workflows WHERE lower(name) LIKE lower(?)', ['ALP%']),
        );
        assert.equal(agreed?.n, 1, 'lower() on both sides agrees');
        await addWorkflow(engine, 'a_b');
        await addWorkflow(engine, 'axb');
        const escaped = await engine.read((db) =>
          db.all<{ name: string }>("SELECT name FROM workflows WHERE name LIKE ? ESCAPE '\\' ORDER BY id", ['a\\_b']),
        );
        assert.deepEqual(
          escaped.map((r) => r.name),
          ['a_b'],
          "an explicit ESCAPE '\\' agrees",
        );
      } finally {
        await ledger.dispose();
      }
    });

    test('waitForChange: at once when already past, on another engine’s commit, on timeout, and on abort', async () => {
      const ledger = await c.ledger();
      try {
        const a = await ledger.open();
        const b = await ledger.open();
        await addWorkflow(a, 'first');
        assert.deepEqual(await b.waitForChange(0, { timeoutMs: 2000 }), { seq: a.seq, timedOut: false });
        const timedOut = await b.waitForChange(a.seq, { timeoutMs: 50 });
        assert.deepEqual(timedOut, { seq: a.seq, timedOut: true });
        const changes: { external: boolean; toSeq: number }[] = [];
        b.onDidChange((e) => changes.push(e));
        const waiting = b.waitForChange(a.seq, { timeoutMs: 5000 });
        await sleep(20);
        await addWorkflow(a, 'second');
        const woke = await waiting;
        assert.equal(woke.timedOut, false);
        assert.equal(woke.seq, a.seq);
        assert.ok(
          changes.some((e) => e.external && e.toSeq === a.seq),
          'onDidChange told b of a’s commit',
        );
        const controller = new AbortController();
        const aborted = b.waitForChange(a.seq, { timeoutMs: 5000, signal: controller.signal });
        controller.abort(new Error('client went away'));
        await assert.rejects(aborted, /client went away/);
      } finally {
        await ledger.dispose();
      }
    });

    test('describe() names the engine, where it is (no password) and the schema version', async () => {
      const ledger = await c.ledger();
      try {
        const engine = await ledger.open();
        const d = engine.describe();
        assert.equal(d.kind, c.name);
        assert.ok(d.schemaVersion >= 5);
        assert.equal(d.location, ledger.location);
        const password = ledger.env.AGENT_LEDGER_DB_PASSWORD;
        if (password) assert.ok(!JSON.stringify(d).includes(password));
      } finally {
        await ledger.dispose();
      }
    });
  });
}
