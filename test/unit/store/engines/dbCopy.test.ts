// `db copy` embedded → PostgreSQL → embedded: nothing lost, ids kept, sequences moved on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { copyLedgerDb, initLedgerDb, migrateLedgerDb } from '../../../../src/store/admin/dbAdmin';
import type { LedgerEngine } from '../../../../src/store/engine';
import { StoreError } from '../../../../src/store/errors';
import { openEngine } from '../../../../src/store/openEngine';
import { createTestDatabase, pgEnv, pgSkip } from '../../../helpers/postgres';
import { tempDir } from '../../../helpers/tmp';

/** A small ledger with gaps in its ids, a child task whose parent has a larger id, and events. */
async function seed(engine: LedgerEngine): Promise<void> {
  await engine.write(async (tx) => {
    await tx.run(
      "INSERT INTO workflows (id, name, created_at, updated_at) VALUES (3, 'wf three', 't', 't'), (7, 'wf seven', 't', 't')",
    );
    await tx.run(
      "INSERT INTO tasks (id, workflow_id, parent_id, title, status, progress, created_at, updated_at) VALUES (10, 3, NULL, 'child', 'open', 0.5, 't', 't')",
    );
    await tx.run(
      "INSERT INTO tasks (id, workflow_id, parent_id, title, status, created_at, updated_at) VALUES (20, 7, NULL, 'parent', 'done', 't', 't')",
    );
    await tx.run('UPDATE tasks SET parent_id = 20 WHERE id = 10');
    await tx.run(
      "INSERT INTO decisions (task_id, category, question, chosen, reasoning, created_at) VALUES (10, 'arch', 'which?', 'this', 'because ''quoted'' ?', 't')",
    );
    await tx.run(
      "INSERT INTO sessions (task_id, agent, origin, status, idempotency_key, started_at) VALUES (20, 'coder', 'cli', 'ended', 'k-1', 't')",
    );
    await tx.run(
      "INSERT INTO memories (category, id, file, title, status, indexed_at) VALUES ('conventions', 'naming', 'm.md', 'Naming', 'active', 't')",
    );
    for (let i = 0; i < 5; i++)
      await tx.insert(
        "INSERT INTO events (ts, kind, task_id, payload) VALUES ('t', 'task.started', 10, ?) RETURNING seq",
        [JSON.stringify({ i, text: 'ünïcode ✓' })],
      );
    await tx.run('DELETE FROM events WHERE seq = 2');
  });
}

async function dump(engine: LedgerEngine): Promise<unknown> {
  return engine.read(async (db) => ({
    workflows: await db.all('SELECT id, name FROM workflows ORDER BY id'),
    tasks: await db.all('SELECT id, workflow_id, parent_id, title, status, progress FROM tasks ORDER BY id'),
    decisions: await db.all('SELECT id, task_id, reasoning FROM decisions ORDER BY id'),
    sessions: await db.all('SELECT id, task_id, idempotency_key FROM sessions ORDER BY id'),
    memories: await db.all('SELECT category, id, title FROM memories ORDER BY category, id'),
    events: await db.all('SELECT seq, kind, task_id, payload FROM events ORDER BY seq'),
  }));
}

test(
  'db copy embedded → PostgreSQL → embedded keeps every row and id; sequences continue after the highest id',
  { skip: pgSkip },
  async () => {
    const first = path.join(tempDir(), 'first', 'ledger.db');
    const back = path.join(tempDir(), 'back', 'ledger.db');
    const db = await createTestDatabase();
    const env = pgEnv;
    try {
      const a = await openEngine(first);
      await seed(a);
      const original = await dump(a);
      await a.close();

      const report = await copyLedgerDb(first, db.url, { env });
      assert.equal(report.tables.find((t) => t.table === 'events')?.rows, 4);
      assert.equal(report.tables.find((t) => t.table === 'tasks')?.rows, 2);

      const pg = await openEngine(db.url, { env });
      assert.deepEqual(await dump(pg), original, 'PostgreSQL holds the same rows with the same ids');
      assert.equal(
        await pg.write((tx) =>
          tx.insert("INSERT INTO workflows (name, created_at, updated_at) VALUES ('next', 't', 't')"),
        ),
        8,
      );
      assert.equal(
        await pg.write((tx) =>
          tx.insert("INSERT INTO events (ts, kind, payload) VALUES ('t', 'k', '{}') RETURNING seq"),
        ),
        6,
      );
      await pg.write((tx) => tx.run("DELETE FROM events WHERE kind = 'k'"));
      await pg.write((tx) => tx.run("DELETE FROM workflows WHERE name = 'next'"));
      const afterPg = await dump(pg);
      await pg.close();

      await copyLedgerDb(db.url, back, { env });
      const b = await openEngine(back);
      assert.deepEqual(await dump(b), afterPg, 'and back into an embedded store');
      assert.equal(
        await b.write((tx) =>
          tx.insert(
            "INSERT INTO tasks (workflow_id, title, status, created_at, updated_at) VALUES (3, 'new', 'open', 't', 't')",
          ),
        ),
        21,
      );
      await b.close();

      await assert.rejects(
        copyLedgerDb(first, db.url, { env }),
        (err) => StoreError.is(err, 'notEmpty'),
        'a target that holds a ledger is refused',
      );
    } finally {
      await db.drop();
    }
  },
);

test(
  'db init creates the schema, is idempotent, and db migrate refuses a database without a ledger',
  { skip: pgSkip },
  async () => {
    const db = await createTestDatabase();
    const other = await createTestDatabase();
    try {
      await assert.rejects(migrateLedgerDb(other.url, { env: pgEnv }), (err) => StoreError.is(err, 'notInitialized'));
      await assert.rejects(openEngine(other.url, { env: pgEnv }), (err) => StoreError.is(err, 'notInitialized'));
      const created = await initLedgerDb(db.url, { env: pgEnv });
      assert.equal(created.from, 0);
      assert.ok(created.to >= 5);
      const again = await Promise.all([initLedgerDb(db.url, { env: pgEnv }), migrateLedgerDb(db.url, { env: pgEnv })]);
      assert.deepEqual(
        again.map((r) => [r.from, r.to]),
        [
          [created.to, created.to],
          [created.to, created.to],
        ],
      );
      const engine = await openEngine(db.url, { env: pgEnv });
      assert.equal(engine.describe().schemaVersion, created.to);
      await engine.close();
      await assert.rejects(
        initLedgerDb(db.url, { env: { AGENT_LEDGER_DB_PASSWORD: 'wrong' } }),
        (err) => StoreError.is(err, 'authFailed') && !err.message.includes('wrong'),
      );
    } finally {
      await db.drop();
      await other.drop();
    }
  },
);
