import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { LedgerStore } from '../../../../src/store/embedded/ledgerStore';
import { storePaths } from '../../../../src/store/embedded/storePaths';
import { StoreError } from '../../../../src/store/errors';
import { damagedCopies } from '../../../../src/store/embedded/damage';
import { repairStore } from '../../../../src/store/admin/storeRepair';
import { HEADER_SIZE } from '../../../../src/store/embedded/journal';
import { tempDir } from '../../../helpers/tmp';
import { insertWorkflow, overwrite, snapshotFiles, workflows, writeWorkflows } from './damageKit';

const fixture = path.join(__dirname, 'writer.fixture.ts');

function writer(dbPath: string, label: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, dbPath, label, '3'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

test('four processes opening a damaged ledger at once all refuse to write, and none cuts anything off', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  await writeWorkflows(dbPath, 20);
  const journal = storePaths(dbPath).journal;
  overwrite(journal, Math.floor(fs.statSync(journal).size * 0.7), Buffer.alloc(40, 0x58));
  const damaged = fs.readFileSync(journal);
  const before = snapshotFiles(dbPath);
  const results = await Promise.all(['p1', 'p2', 'p3', 'p4'].map((label) => writer(dbPath, label)));
  for (const r of results) {
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, '', 'no write was acknowledged');
    assert.match(r.stderr, /the ledger is damaged/);
  }
  assert.deepEqual(snapshotFiles(dbPath), before);
  const copies = damagedCopies(journal);
  assert.ok(copies.length >= 1);
  for (const copy of copies) assert.deepEqual(fs.readFileSync(copy), damaged);
});

test('damage a running process has not read yet stops it; the process that is past it goes on appending, and repair keeps both', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const behind = await LedgerStore.open({ dbPath });
  await insertWorkflow(behind, 'first');
  assert.equal(workflows(behind).size, 1);
  const ahead = await LedgerStore.open({ dbPath });
  for (let i = 0; i < 10; i++) await insertWorkflow(ahead, `a${i}`);
  // Damage one of the records `behind` has not read yet.
  const journal = storePaths(dbPath).journal;
  const buf = fs.readFileSync(journal);
  let pos = HEADER_SIZE;
  for (let i = 0; i < 6; i++) pos += 16 + buf.readUInt32LE(pos);
  overwrite(journal, pos + 30, Buffer.alloc(20, 0x2a));
  const sizeBefore = fs.statSync(journal).size;

  assert.throws(
    () => workflows(behind),
    (err: unknown) => StoreError.is(err, 'damaged'),
  );
  await assert.rejects(insertWorkflow(behind, 'refused'), (err: unknown) => StoreError.is(err, 'damaged'));
  assert.equal(fs.statSync(journal).size, sizeBefore, 'the process that saw the damage cut nothing off');
  // `ahead` applied those records before the damage: its appends only add.
  await insertWorkflow(ahead, 'still-appending');
  assert.ok(fs.statSync(journal).size > sizeBefore);

  const repair = await repairStore(dbPath);
  assert.equal(repair.lost.length, 1);
  const names = [...workflows(behind).keys()];
  assert.ok(names.includes('first') && names.includes('still-appending') && names.length === 11, names.join(','));
  assert.equal(workflows(ahead).size, 11, 'the process ahead reloads the repaired ledger too');
  behind.close();
  ahead.close();
});
