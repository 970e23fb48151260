import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { LedgerStore } from '../../../../src/store/embedded/ledgerStore';
import { storePaths } from '../../../../src/store/embedded/storePaths';
import { StoreError } from '../../../../src/store/errors';
import { tempDir } from '../../../helpers/tmp';

const fixture = path.join(__dirname, 'writer.fixture.ts');

async function insert(store: LedgerStore, name: string): Promise<number> {
  const now = new Date().toISOString();
  return store.write(
    (tx) =>
      tx.run('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [name, now, now]).lastInsertRowid,
  );
}

function names(store: LedgerStore): string[] {
  return store.read((db) => db.all<{ name: string }>('SELECT name FROM workflows ORDER BY id')).map((r) => r.name);
}

test('a write survives closing and reopening, through the journal alone', async () => {
  const dbPath = path.join(tempDir(), '.agent-ledger', 'ledger.db');
  const a = await LedgerStore.open({ dbPath });
  assert.equal(await insert(a, 'one'), 1);
  assert.equal(await insert(a, 'two'), 2);
  a.close();
  assert.equal(fs.existsSync(dbPath), false, 'no checkpoint yet: the image is not written on every write');
  const b = await LedgerStore.open({ dbPath });
  assert.deepEqual(names(b), ['one', 'two']);
  b.close();
});

test('two stores on one file see each other’s writes and never reuse an id', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const a = await LedgerStore.open({ dbPath });
  const b = await LedgerStore.open({ dbPath });
  const changes: number[] = [];
  b.onDidChange((e) => changes.push(e.toSeq));
  await insert(a, 'from-a');
  assert.deepEqual(names(b), ['from-a']);
  assert.ok(changes.length > 0, 'b was told about a’s write');
  assert.equal(await insert(b, 'from-b'), 2);
  assert.deepEqual(names(a), ['from-a', 'from-b']);
  a.close();
  b.close();
});

test('a checkpoint folds the journal into the image; a lagging reader reloads it', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const writer = await LedgerStore.open({ dbPath, checkpointRecords: 10 });
  const lagging = await LedgerStore.open({ dbPath });
  for (let i = 0; i < 35; i++) await insert(writer, `w${i}`);
  assert.ok(fs.existsSync(dbPath), 'the image was written by a checkpoint');
  const journalSize = fs.statSync(storePaths(dbPath).journal).size;
  assert.ok(journalSize < 2000, `the journal was reset (size ${journalSize})`);
  assert.equal(names(lagging).length, 35);
  const fresh = await LedgerStore.open({ dbPath });
  assert.equal(names(fresh).length, 35);
  assert.equal(fresh.seq, writer.seq);
  for (const s of [writer, lagging, fresh]) s.close();
});

test('a torn last record is ignored on open and cut off by the next writer', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const a = await LedgerStore.open({ dbPath });
  await insert(a, 'kept');
  a.close();
  const journal = storePaths(dbPath).journal;
  fs.appendFileSync(journal, Buffer.from([200, 0, 0, 0, 1, 2, 3, 4, 5]));
  const b = await LedgerStore.open({ dbPath });
  assert.deepEqual(names(b), ['kept']);
  await insert(b, 'after');
  b.close();
  const c = await LedgerStore.open({ dbPath });
  assert.deepEqual(names(c), ['kept', 'after']);
  c.close();
});

test('a refused write (fn throws) leaves no trace in the store or the journal', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const a = await LedgerStore.open({ dbPath });
  await insert(a, 'before');
  const size = fs.statSync(storePaths(dbPath).journal).size;
  await assert.rejects(
    a.write((tx) => {
      tx.run("INSERT INTO workflows (name, created_at, updated_at) VALUES ('ghost', 'x', 'x')");
      throw new Error('refused');
    }),
    /refused/,
  );
  assert.deepEqual(names(a), ['before']);
  assert.equal(fs.statSync(storePaths(dbPath).journal).size, size);
  a.close();
});

test('read-only open of an absent store creates no file and reads empty tables', async () => {
  const dir = tempDir();
  const dbPath = path.join(dir, '.agent-ledger', 'ledger.db');
  const store = await LedgerStore.open({ dbPath, readonly: true });
  assert.deepEqual(names(store), []);
  await assert.rejects(insert(store, 'x'), (err: unknown) => StoreError.is(err, 'readonly'));
  store.close();
  assert.equal(fs.existsSync(path.join(dir, '.agent-ledger')), false);
});

test('a read-only store opened before the ledger existed follows it once another process creates it', async () => {
  const dir = tempDir();
  const dbPath = path.join(dir, '.agent-ledger', 'ledger.db');
  const reader = await LedgerStore.open({ dbPath, readonly: true });
  assert.deepEqual(names(reader), []);
  // Another process creates the ledger: its first record migrates the schema the reader already has in memory.
  const writer = await LedgerStore.open({ dbPath });
  await insert(writer, 'first');
  assert.deepEqual(
    names(reader),
    ['first'],
    'the writer’s migration replays on the disk image, not on the in-memory one',
  );
  await insert(writer, 'second');
  assert.deepEqual(names(reader), ['first', 'second']);
  assert.equal(reader.seq, writer.seq);
  writer.close();
  reader.close();
});

test('a lock left by a dead process is broken at once', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const lock = storePaths(dbPath).lock;
  const child = spawn(process.execPath, ['-e', 'process.exit(0)']);
  const deadPid = await new Promise<number>((resolve) => child.on('exit', () => resolve(child.pid!)));
  fs.writeFileSync(lock, JSON.stringify({ pid: deadPid, host: os.hostname(), nonce: 'x', at: Date.now() }));
  const store = await LedgerStore.open({ dbPath, lockTimeoutMs: 2000 });
  await insert(store, 'after-dead-lock');
  assert.deepEqual(names(store), ['after-dead-lock']);
  assert.equal(fs.existsSync(lock), false);
  store.close();
});

function runWriter(dbPath: string, label: string, count: number, checkpoint?: number) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fixture, dbPath, label, String(count), ...(checkpoint ? [String(checkpoint)] : [])],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const acked: string[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    acked.push(...lines);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, acked, exited, stderr: () => stderr };
}

test('four processes writing at once lose nothing', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const writers = ['p1', 'p2', 'p3', 'p4'].map((label) => runWriter(dbPath, label, 150, 100));
  const codes = await Promise.all(writers.map((w) => w.exited));
  assert.deepEqual(codes, [0, 0, 0, 0], writers.map((w) => w.stderr()).join('\n'));
  const store = await LedgerStore.open({ dbPath });
  const all = names(store);
  assert.equal(all.length, 600);
  assert.equal(new Set(all).size, 600);
  for (const w of writers)
    for (const name of w.acked) assert.ok(all.includes(name), `${name} acknowledged but missing`);
  const ids = store.read((db) => db.all<{ id: number }>('SELECT id FROM workflows ORDER BY id')).map((r) => r.id);
  assert.deepEqual(
    ids,
    Array.from({ length: 600 }, (_, i) => i + 1),
  );
  store.close();
});

test('kill -9 in the middle of a stream of writes keeps every acknowledged write (repeated)', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const acknowledged: string[] = [];
  for (let round = 0; round < 12; round++) {
    // Two writers at once, one of which dies; small checkpoints so kills also land mid-checkpoint.
    const victim = runWriter(dbPath, `r${round}`, -1, 7);
    const bystander = runWriter(dbPath, `b${round}`, 40, 7);
    await new Promise((r) => setTimeout(r, 500 + Math.random() * 400));
    victim.child.kill('SIGKILL');
    await victim.exited;
    assert.equal(await bystander.exited, 0, bystander.stderr());
    acknowledged.push(...victim.acked, ...bystander.acked);
    const store = await LedgerStore.open({ dbPath, lockTimeoutMs: 5000 });
    const present = new Set(names(store));
    for (const name of acknowledged)
      assert.ok(present.has(name), `round ${round}: ${name} was acknowledged but is missing`);
    store.close();
  }
  assert.ok(acknowledged.length > 100, `enough writes were exercised (${acknowledged.length})`);
});
