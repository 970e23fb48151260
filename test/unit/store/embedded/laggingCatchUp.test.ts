// A process that is behind a checkpoint catches up from the previous journal (the generation it was
// reading, which the checkpoint kept as ledger.journal.prev) instead of loading the whole image
// again, and falls back to the image whenever that file cannot serve: two checkpoints behind, or
// damaged (then `db check` still reports the damage and nothing is cut off or rewritten).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerStore } from '../../../../src/store/embedded/ledgerStore';
import { checkStore } from '../../../../src/store/admin/storeCheck';
import { storePaths } from '../../../../src/store/embedded/storePaths';
import { HEADER_SIZE, RECORD_HEAD } from '../../../../src/store/embedded/journal';
import { tempDir } from '../../../helpers/tmp';
import { insertWorkflow, workflows } from './damageKit';
import { startWriter } from './writerProcess';

/** Counts the catch-ups `store` made from the previous journal. */
function countFromPrevious(store: LedgerStore): { count: number } {
  const counter = { count: 0 };
  const journal = (store as unknown as { journal: { catchUpFromPrevious: (...args: unknown[]) => boolean } }).journal;
  const original = journal.catchUpFromPrevious.bind(journal);
  journal.catchUpFromPrevious = (...args: unknown[]) => {
    const served = original(...args);
    if (served) counter.count++;
    return served;
  };
  return counter;
}

/** Counts the times `store` loads the image again (the route this file is about avoids it). */
function countReloads(store: LedgerStore): { count: number } {
  const counter = { count: 0 };
  const own = store as unknown as { reloadImage: () => void };
  const original = own.reloadImage.bind(store);
  own.reloadImage = () => {
    counter.count++;
    original();
  };
  return counter;
}

async function writeMany(store: LedgerStore, prefix: string, count: number, names: string[]): Promise<void> {
  for (let i = 0; i < count; i++) {
    names.push(`${prefix}${i}`);
    await insertWorkflow(store, `${prefix}${i}`);
  }
}

test('a process one checkpoint behind catches up from the previous journal, without loading the image again', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const writer = await LedgerStore.open({ dbPath });
  const names: string[] = [];
  await writeMany(writer, 'a', 4, names);
  const lagging = await LedgerStore.open({ dbPath });
  assert.equal(workflows(lagging).size, 4);
  const reloads = countReloads(lagging);
  await writeMany(writer, 'b', 9, names);
  await writer.checkpoint(); // folds the records the lagging process has not read into the image
  const base = journalBase(dbPath);
  assert.ok(base > lagging.seq, `the journal's base (${base}) is past the lagging process (${lagging.seq})`);
  assert.deepEqual([...workflows(lagging).keys()].sort(), [...names].sort());
  assert.equal(lagging.seq, writer.seq);
  assert.equal(reloads.count, 0, 'the image was not loaded again');
  // And it writes on from there.
  await insertWorkflow(lagging, 'from-lagging');
  assert.equal(workflows(writer).get('from-lagging'), workflows(lagging).get('from-lagging'));
  writer.close();
  lagging.close();
});

test('two checkpoints behind, or the previous journal damaged: the image is loaded again, and the damage is reported, not cut off', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const paths = storePaths(dbPath);
  const writer = await LedgerStore.open({ dbPath });
  const names: string[] = [];
  await writeMany(writer, 'a', 3, names);
  const far = await LedgerStore.open({ dbPath });
  assert.equal(workflows(far).size, 3);
  const farReloads = countReloads(far);

  // Two checkpoints: the previous journal no longer holds the generation `far` was reading.
  await writeMany(writer, 'b', 3, names);
  await writer.checkpoint();
  await writeMany(writer, 'c', 3, names);
  await writer.checkpoint();
  assert.deepEqual([...workflows(far).keys()].sort(), [...names].sort());
  assert.equal(farReloads.count, 1, 'two checkpoints behind: the image');

  // One checkpoint behind, but a record it needs in the previous journal is damaged.
  await writeMany(writer, 'd', 3, names);
  const damaged = await LedgerStore.open({ dbPath });
  assert.equal(damaged.seq, writer.seq, 'reads the three records of the generation in place');
  const damagedReloads = countReloads(damaged);
  await writeMany(writer, 'e', 3, names);
  await writer.checkpoint();
  const prev = fs.readFileSync(paths.prevJournal);
  // Flip a byte inside the payload of the first record after the three `damaged` has read.
  let pos = HEADER_SIZE;
  for (let seen = 0; seen < 3; seen++) pos += RECORD_HEAD + prev.readUInt32LE(pos);
  prev[pos + RECORD_HEAD + 4] ^= 0xff;
  fs.writeFileSync(paths.prevJournal, prev);
  assert.deepEqual([...workflows(damaged).keys()].sort(), [...names].sort());
  assert.equal(damagedReloads.count, 1, 'the damaged previous journal: the image');
  const report = await checkStore(dbPath);
  assert.equal(report.previous.journal.status, 'damaged', 'db check still reports the damaged previous journal');
  assert.deepEqual(fs.readFileSync(paths.prevJournal), prev, 'nothing cut off or rewritten');
  for (const s of [writer, far, damaged]) s.close();
});

/** The base seq of the journal in place (what the last checkpoint folded into the image). */
function journalBase(dbPath: string): number {
  try {
    return Number(fs.readFileSync(storePaths(dbPath).journal).readBigUInt64LE(12));
  } catch {
    return 0;
  }
}

async function until(what: string, ok: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('three writers checkpointing in the background, killed -9 at random instants, and a reader that follows them through the previous journals: nothing lost, doubled or seen to go back', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const acked: string[] = [];
  let reloads = 0;
  let fromPrevious = 0;
  let followed = 0;
  for (let t = 0; t < 4; t++) {
    const writers = ['a', 'b', 'c'].map((w) => startWriter(dbPath, `t${t}${w}`, 25));
    await until('the writers to start', () => writers.every((w) => w.acked().length > 0 || w.stderr() !== ''));
    const reader = await LedgerStore.open({ dbPath, readonly: true });
    const counter = countReloads(reader);
    const previous = countFromPrevious(reader);
    let seen = new Set<string>();
    let lastSeq = reader.seq;
    const killAt = Date.now() + 1500 + Math.random() * 2500;
    while (Date.now() < killAt) {
      // Reads between the writers' checkpoints: the set of names only grows, the seq only rises.
      const now = new Set(workflows(reader).keys());
      for (const name of seen) assert.ok(now.has(name), `trial ${t + 1}: ${name} was seen and then was not`);
      assert.ok(reader.seq >= lastSeq);
      if (reader.seq > lastSeq) followed++;
      seen = now;
      lastSeq = reader.seq;
      if (Math.random() < 0.5) await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
      else {
        // Stay behind until a checkpoint has folded records this reader has not read, then read.
        const until = Date.now() + 3000;
        while (journalBase(dbPath) <= reader.seq && Date.now() < until) await new Promise((r) => setTimeout(r, 3));
      }
    }
    for (const w of writers) await w.kill();
    reloads += counter.count;
    fromPrevious += previous.count;
    for (const w of writers) {
      assert.equal(w.stderr(), '', w.stderr());
      acked.push(...w.acked());
    }
    const rows = workflows(reader);
    reader.close();
    const store = await LedgerStore.open({ dbPath });
    const all = store.read((db) => db.all<{ name: string }>('SELECT name FROM workflows'));
    store.close();
    const present = new Set(all.map((r) => r.name));
    assert.equal(present.size, all.length, `trial ${t + 1}: no write doubled`);
    assert.deepEqual(
      acked.filter((name) => !present.has(name)),
      [],
      `trial ${t + 1}: every acknowledged write is there`,
    );
    for (const name of rows.keys()) assert.ok(present.has(name), `trial ${t + 1}: the reader saw only what is stored`);
  }
  const generation = fs.readFileSync(storePaths(dbPath).journal).readUInt32LE(8);
  assert.ok(generation >= 3, `background checkpoints ran during the trials (generation ${generation})`);
  assert.ok(acked.length > 100, `enough writes were exercised (${acked.length})`);
  assert.ok(followed > 10, `the reader followed the writers (${followed} reads saw new records)`);
  assert.ok(
    fromPrevious > 0,
    `the reader caught up from the previous journal (${fromPrevious} times; the image ${reloads} times)`,
  );
});
