import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerStore } from '../../../../src/store/embedded/ledgerStore';
import { storePaths } from '../../../../src/store/embedded/storePaths';
import { StoreError } from '../../../../src/store/errors';
import { checkStore } from '../../../../src/store/admin/storeCheck';
import { repairStore } from '../../../../src/store/admin/storeRepair';
import { damagedCopies } from '../../../../src/store/embedded/damage';
import { decodeHeader, encodeHeader, encodeRecord, HEADER_SIZE } from '../../../../src/store/embedded/journal';
import { tempDir } from '../../../helpers/tmp';
import { deleteBytes, insertWorkflow, overwrite, snapshotFiles, workflows, writeWorkflows } from './damageKit';

const isDamaged = (err: unknown) => StoreError.is(err, 'damaged');

test('40 bytes overwritten mid-journal: reads and writes refuse, nothing is cut off, a copy is kept, repair salvages the rest with their ids', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const acked = await writeWorkflows(dbPath, 30);
  const journal = storePaths(dbPath).journal;
  // 40 bytes into the 16th workflow's record (record 1 is the schema migration).
  overwrite(journal, findRecordOffset(fs.readFileSync(journal), 17) + 60, Buffer.alloc(40, 0x58));
  const before = snapshotFiles(dbPath);

  const store = await LedgerStore.open({ dbPath });
  assert.throws(
    () => workflows(store),
    (err: unknown) => isDamaged(err) && /db repair/.test((err as Error).message),
  );
  await assert.rejects(insertWorkflow(store, 'after'), isDamaged);
  store.close();
  assert.deepEqual(snapshotFiles(dbPath), before, 'no file was truncated or rewritten');
  const copies = damagedCopies(journal);
  assert.equal(copies.length, 1, 'one copy of the damaged journal, however many times it was seen');
  assert.deepEqual(fs.readFileSync(copies[0]), before['ledger.journal']);

  const check = await checkStore(dbPath);
  assert.equal(check.ok, false);
  assert.equal(check.journal.status, 'damaged');
  assert.ok(check.journal.damagedBytes.length >= 1);
  const lost = check.repair.lost.flatMap((r) => Array.from({ length: r.to - r.from + 1 }, (_, i) => r.from + i));
  assert.deepEqual(lost, [acked[15].seq], 'only the damaged record is lost, not everything after it');

  const repair = await repairStore(dbPath);
  assert.equal(repair.repaired, true);
  assert.deepEqual(repair.unrecoverable, []);
  const after = await LedgerStore.open({ dbPath });
  const present = workflows(after);
  for (const a of acked) {
    if (lost.includes(a.seq)) assert.equal(present.has(a.name), false);
    else assert.equal(present.get(a.name), a.id, `${a.name} keeps its id ${a.id}`);
  }
  assert.equal(present.size, acked.length - 1);
  const next = await insertWorkflow(after, 'after-repair');
  assert.equal(next, acked[acked.length - 1].id + 1, 'a new row never reuses an id');
  after.close();
  assert.equal((await checkStore(dbPath)).ok, true);
});

test('a torn tail (a crash mid-append, the header already counting it) is still dropped silently and writes go on', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const acked = await writeWorkflows(dbPath, 5);
  const journal = storePaths(dbPath).journal;
  // The next record, half written, with the header already saying it was appended.
  const lastSeq = acked[acked.length - 1].seq;
  const half = encodeRecord({ seq: lastSeq + 1, statements: [['SELECT 1']] }).subarray(0, 20);
  fs.appendFileSync(journal, half);
  const header = fs.readFileSync(journal).subarray(0, HEADER_SIZE);
  const decoded = decodeHeader(header);
  assert.ok(decoded.ok);
  overwrite(journal, 0, encodeHeader({ ...decoded.header, lastSeq: lastSeq + 1 }));

  const check = await checkStore(dbPath);
  assert.equal(check.ok, true);
  assert.equal(check.journal.status, 'tornTail');
  assert.equal(check.journal.tornTail?.seq, lastSeq + 1);
  const store = await LedgerStore.open({ dbPath });
  assert.equal(workflows(store).size, 5);
  await insertWorkflow(store, 'after');
  store.close();
  assert.deepEqual(damagedCopies(journal), [], 'a torn tail is not damage');
  const again = await LedgerStore.open({ dbPath });
  assert.equal(workflows(again).get('after'), 6);
  again.close();
});

test('damage in the last two records is not mistaken for a torn tail: the header counts them', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const acked = await writeWorkflows(dbPath, 10);
  const journal = storePaths(dbPath).journal;
  const size = fs.statSync(journal).size;
  // The last record is about 180 bytes: 300 bytes from the end spans the last two.
  overwrite(journal, size - 300, Buffer.alloc(300, 0));
  const store = await LedgerStore.open({ dbPath });
  assert.throws(() => workflows(store), isDamaged);
  store.close();
  const check = await checkStore(dbPath);
  assert.equal(check.ok, false);
  assert.ok(
    check.repair.lost.some((r) => r.to === acked[acked.length - 1].seq),
    JSON.stringify(check.repair.lost),
  );
});

test('a damaged header, and a gap in sequence numbers, are damage too', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  await writeWorkflows(dbPath, 6);
  const journal = storePaths(dbPath).journal;
  overwrite(journal, 13, Buffer.from([0x7f])); // baseSeq
  let store = await LedgerStore.open({ dbPath });
  assert.throws(
    () => workflows(store),
    (err: unknown) => isDamaged(err) && /header/.test((err as Error).message),
  );
  store.close();
  assert.equal((await repairStore(dbPath)).lost.length, 0, 'a damaged header loses no record');

  const gapPath = path.join(tempDir(), 'ledger.db');
  const acked = await writeWorkflows(gapPath, 6);
  const gapJournal = storePaths(gapPath).journal;
  // Cut one whole record out of the middle: every byte left is valid, but seq jumps.
  const third = findRecordOffset(fs.readFileSync(gapJournal), 3);
  const size = fs.readFileSync(gapJournal).readUInt32LE(third) + 16;
  deleteBytes(gapJournal, third, size);
  store = await LedgerStore.open({ dbPath: gapPath });
  assert.throws(
    () => workflows(store),
    (err: unknown) => isDamaged(err) && /seq/.test((err as Error).message),
  );
  store.close();
  const repair = await repairStore(gapPath);
  assert.deepEqual(repair.lost, [{ from: acked[1].seq, to: acked[1].seq }]);
});

test('a damaged image is caught on load, kept, and rebuilt from the previous image and journal without loss', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const acked = await writeWorkflows(dbPath, 45, { checkpointRecords: 20 });
  const paths = storePaths(dbPath);
  assert.ok(fs.existsSync(paths.prevImage) && fs.existsSync(paths.prevJournal), 'a checkpoint keeps the previous pair');
  overwrite(paths.image, 5000, Buffer.alloc(40, 0x58));
  const store = await LedgerStore.open({ dbPath });
  assert.throws(
    () => workflows(store),
    (err: unknown) => isDamaged(err) && /ledger\.db/.test((err as Error).message),
  );
  store.close();
  assert.equal(damagedCopies(paths.image).length, 1);
  const check = await checkStore(dbPath);
  assert.equal(check.image.status, 'damaged');
  assert.equal(check.repair.base, 'previousImage');
  assert.deepEqual(check.repair.lost, []);
  const repair = await repairStore(dbPath);
  assert.equal(repair.repaired, true);
  const after = await LedgerStore.open({ dbPath });
  const present = workflows(after);
  for (const a of acked) assert.equal(present.get(a.name), a.id);
  after.close();
});

test('a store that was open before the repair reloads the repaired ledger on its next read', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  await writeWorkflows(dbPath, 12);
  const journal = storePaths(dbPath).journal;
  overwrite(journal, Math.floor(fs.statSync(journal).size / 2), Buffer.alloc(40, 0x41));
  const live = await LedgerStore.open({ dbPath });
  assert.throws(() => workflows(live), isDamaged);
  await repairStore(dbPath);
  assert.ok(workflows(live).size >= 10);
  await insertWorkflow(live, 'after');
  live.close();
});

test('a journal written before the header counted records (all-zero reserved bytes) opens, and the next append upgrades it', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  await writeWorkflows(dbPath, 3);
  const journal = storePaths(dbPath).journal;
  overwrite(journal, 20, Buffer.alloc(12, 0));
  const store = await LedgerStore.open({ dbPath });
  assert.equal(workflows(store).size, 3);
  assert.equal((await checkStore(dbPath)).journal.header.status, 'legacy');
  await insertWorkflow(store, 'upgraded');
  store.close();
  const check = await checkStore(dbPath);
  assert.equal(check.journal.header.status, 'ok');
  assert.equal(check.journal.header.lastSeq, check.journal.intact.seqs[0].to);
});

/** Offset of the n-th record (1-based) of a journal buffer. */
function findRecordOffset(buf: Buffer, n: number): number {
  let pos = HEADER_SIZE;
  for (let i = 1; i < n; i++) pos += 16 + buf.readUInt32LE(pos);
  return pos;
}

test('a read-only store refuses a damaged ledger too, but writes nothing, not even a copy', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  await writeWorkflows(dbPath, 8);
  const journal = storePaths(dbPath).journal;
  overwrite(journal, findRecordOffset(fs.readFileSync(journal), 4) + 40, Buffer.alloc(10, 0x20));
  const store = await LedgerStore.open({ dbPath, readonly: true });
  assert.throws(() => workflows(store), isDamaged);
  store.close();
  assert.deepEqual(damagedCopies(journal), []);
});
