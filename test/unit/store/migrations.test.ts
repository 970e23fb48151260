import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSqlJs } from '../../../src/store/embedded/sqlJs';
import { LedgerStore } from '../../../src/store/embedded/ledgerStore';
import { latestVersion } from '../../../src/store/migrations';
import { v1Tracking } from '../../../src/store/migrations/v1Tracking';
import { tempDir } from '../../helpers/tmp';

test('a store written by an older version migrates forward on open, keeping its data, and other processes replay the migration', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  // An image as the first release wrote it: schema v1 and one workflow.
  const SQL = await loadSqlJs();
  const old = new SQL.Database();
  for (const sql of v1Tracking) old.run(sql);
  old.run('PRAGMA user_version = 1');
  old.run("INSERT INTO workflows (name, created_at, updated_at) VALUES ('from v1', 't', 't')");
  old.run('CREATE TABLE ledger_meta (key TEXT PRIMARY KEY, value TEXT)');
  old.run("INSERT INTO ledger_meta VALUES ('image_seq', '0')");
  fs.writeFileSync(dbPath, old.export());
  old.close();

  const upgraded = await LedgerStore.open({ dbPath });
  const version = (s: LedgerStore) =>
    s.read((db) => db.get<{ user_version: number }>('PRAGMA user_version'))?.user_version;
  assert.equal(version(upgraded), latestVersion);
  assert.ok(latestVersion > 1);
  assert.deepEqual(
    upgraded.read((db) => db.all<{ name: string }>('SELECT name FROM workflows')).map((r) => r.name),
    ['from v1'],
  );
  assert.ok(
    upgraded.read((db) => db.get("SELECT name FROM sqlite_master WHERE name = 'sessions_by_agent'")),
    'the latest migration ran',
  );

  // Another process that loads the same old image replays the migration from the journal.
  const other = await LedgerStore.open({ dbPath, readonly: true });
  assert.equal(version(other), latestVersion);
  other.close();
  upgraded.close();
});

test('a store written by a newer version is refused with an actionable message', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const SQL = await loadSqlJs();
  const future = new SQL.Database();
  future.run(`PRAGMA user_version = ${latestVersion + 1}`);
  fs.writeFileSync(dbPath, future.export());
  future.close();
  await assert.rejects(LedgerStore.open({ dbPath }), /written by a newer Agent Ledger.*update Agent Ledger/);
});
