import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerStore } from '../../../../src/store/embedded/ledgerStore';
import { storePaths } from '../../../../src/store/embedded/storePaths';
import { StoreError } from '../../../../src/store/errors';
import { checkStore } from '../../../../src/store/admin/storeCheck';
import { repairStore } from '../../../../src/store/admin/storeRepair';
import { tempDir } from '../../../helpers/tmp';
import type { Acked } from './damageKit';
import {
  copyStore,
  deleteBytes,
  insertWorkflow,
  overwrite,
  prng,
  seqSet,
  snapshotFiles,
  workflows,
  writeWorkflows,
} from './damageKit';

const TRIALS = 200;

/**
 * Damage at random offsets, many times over: overwrite, flip or delete bytes of the journal, the
 * image or the pair a checkpoint keeps, in a ledger of journal records only and in one with
 * checkpoints. Whatever happens, no acknowledged record is lost silently (it reads back, or
 * `db check` reported it), nothing intact is cut off (a refused store's files are untouched), and
 * repair brings back every record check did not report lost, with its id.
 */
test(`${TRIALS} seeded random damages: never a silent loss, never a truncation, repair recovers every intact record`, async () => {
  const templates = [await template('journal only', {}), await template('checkpointed', { checkpointRecords: 20 })];
  const seen = { refused: 0, tornOrIntact: 0, repaired: 0, lostRecords: 0 };
  for (let trial = 0; trial < TRIALS; trial++) {
    const seed = 0x5eed + trial;
    const rnd = prng(seed);
    const t = templates[trial % 2];
    const dir = tempDir('agent-ledger-trial-');
    try {
      const dbPath = copyStore(t.dbPath, dir);
      const what = damage(dbPath, rnd);
      const label = `trial ${trial} (seed ${seed}, ${t.name}, ${what})`;
      const outcome = await runTrial(dbPath, t.acked, label, trial % 4 === 0);
      seen[outcome.refused ? 'refused' : 'tornOrIntact']++;
      if (outcome.repaired) seen.repaired++;
      seen.lostRecords += outcome.lost;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  // The trials exercised both sides: refused damaged stores and intact or torn ones, and losses.
  assert.ok(
    seen.refused > TRIALS / 4 && seen.tornOrIntact > 5 && seen.repaired > TRIALS / 2 && seen.lostRecords > 0,
    JSON.stringify(seen),
  );
});

async function template(
  name: string,
  options: { checkpointRecords?: number },
): Promise<{ name: string; dbPath: string; acked: Acked[] }> {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const acked = await writeWorkflows(dbPath, options.checkpointRecords ? 45 : 30, options);
  return { name, dbPath, acked };
}

/** Damages one file of the store at a random offset; returns what it did. */
function damage(dbPath: string, rnd: () => number): string {
  const p = storePaths(dbPath);
  const files = [p.journal, p.journal, p.journal, p.image, p.image, p.prevImage, p.prevJournal].filter((f) =>
    fs.existsSync(f),
  );
  const file = files[Math.floor(rnd() * files.length)];
  const size = fs.statSync(file).size;
  const offset = Math.floor(rnd() * size);
  const length = 1 + Math.floor(rnd() * 64);
  const kind = ['overwrite', 'flip', 'delete'][Math.floor(rnd() * 3)];
  if (kind === 'overwrite') overwrite(file, offset, Buffer.from(Array.from({ length }, () => Math.floor(rnd() * 256))));
  else if (kind === 'flip')
    overwrite(file, offset, Buffer.from([fs.readFileSync(file)[offset] ^ (1 << Math.floor(rnd() * 8))]));
  else deleteBytes(file, offset, length);
  return `${kind} ${kind === 'flip' ? 1 : length} byte(s) at ${offset} of ${path.basename(file)} (${size} bytes)`;
}

/** `writeAfter`: also write after the repair (every few trials: it costs an fsync). */
async function runTrial(
  dbPath: string,
  acked: Acked[],
  label: string,
  writeAfter: boolean,
): Promise<{ refused: boolean; repaired: boolean; lost: number }> {
  const check = await checkStore(dbPath);
  const reported = seqSet(check.repair.lost, [check.journal.tornTail?.seq]);
  const before = snapshotFiles(dbPath);

  const store = await LedgerStore.open({ dbPath });
  let present: Map<string, number> | undefined;
  try {
    present = workflows(store);
  } catch (err) {
    assert.ok(StoreError.is(err, 'damaged'), `${label}: ${String(err)}`);
  }
  if (present) {
    // Readable: every acknowledged record is there with its id, or check reported it.
    for (const a of acked)
      assert.ok(
        present.get(a.name) === a.id || reported.has(a.seq),
        `${label}: ${a.name} (seq ${a.seq}) silently missing`,
      );
    assert.ok(
      check.journal.status !== 'damaged' && check.image.status !== 'damaged',
      `${label}: the store reads a ledger check calls damaged`,
    );
  } else {
    assert.equal(check.ok, false, `${label}: the store refuses a ledger check calls intact`);
    await assert.rejects(insertWorkflow(store, 'refused'), (err: unknown) => StoreError.is(err, 'damaged'), label);
    assert.deepEqual(snapshotFiles(dbPath), before, `${label}: a refused store's files were changed`);
  }
  store.close();

  const repair = await repairStore(dbPath);
  assert.equal(repair.repaired, !check.ok, label);
  assert.deepEqual(repair.unrecoverable, [], label);
  const after = await LedgerStore.open({ dbPath });
  try {
    const recovered = workflows(after);
    for (const a of acked) {
      if (!reported.has(a.seq))
        assert.equal(recovered.get(a.name), a.id, `${label}: ${a.name} (seq ${a.seq}) intact but not recovered`);
    }
    // And check reported nothing as lost that was not.
    const lost = seqSet(repair.lost);
    for (const a of acked)
      assert.ok(!(lost.has(a.seq) && recovered.has(a.name)), `${label}: seq ${a.seq} reported lost but recovered`);
    if (writeAfter) await insertWorkflow(after, 'after-repair');
  } finally {
    after.close();
  }
  assert.equal((await checkStore(dbPath)).ok, true, `${label}: still damaged after repair`);
  const lost = acked.filter((a) => reported.has(a.seq)).length;
  return { refused: !present, repaired: repair.repaired, lost };
}
