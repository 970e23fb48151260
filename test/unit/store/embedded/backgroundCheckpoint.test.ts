import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { installCheckpoint } from '../../../../src/store/embedded/checkpointFiles';
import { prepareCheckpointImage } from '../../../../src/store/embedded/checkpointImage';
import { readHeader } from '../../../../src/store/embedded/journal';
import { LedgerStore } from '../../../../src/store/embedded/ledgerStore';
import { compiledSqlJs, loadSqlJs } from '../../../../src/store/embedded/sqlJs';
import { storePaths } from '../../../../src/store/embedded/storePaths';
import { tempDir } from '../../../helpers/tmp';
import { insertWorkflow, snapshotFiles, workflows } from './damageKit';
import { startWriter } from './writerProcess';

function journalHeader(dbPath: string): { generation: number; baseSeq: number; lastSeq?: number } {
  const fd = fs.openSync(storePaths(dbPath).journal, 'r');
  try {
    const read = readHeader(fd);
    assert.ok(read.ok);
    return read.header;
  } finally {
    fs.closeSync(fd);
  }
}

async function until(what: string, ok: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('a large image is checkpointed by a worker while writes go on: image replaced, the records after it carried over, nothing lost', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const writer = await LedgerStore.open({ dbPath, checkpointRecords: 20, backgroundCheckpointBytes: 0 });
  const lagging = await LedgerStore.open({ dbPath });
  const names: string[] = [];
  for (let i = 0; i < 25; i++) names.push(`w${i}`);
  for (const name of names) await insertWorkflow(writer, name);
  assert.equal(journalHeader(dbPath).baseSeq, 0, 'the write that crossed the threshold returned before any checkpoint');
  // Writes go on while the worker prepares the image.
  let i = 25;
  while (journalHeader(dbPath).baseSeq === 0) {
    if (i < 400) {
      names.push(`w${i}`);
      await insertWorkflow(writer, `w${i++}`);
    } else await until('the background checkpoint', () => journalHeader(dbPath).baseSeq > 0);
  }
  const header = journalHeader(dbPath);
  const paths = storePaths(dbPath);
  assert.ok(
    fs.existsSync(paths.image) && fs.existsSync(paths.prevJournal),
    'the image and the previous journal are in place',
  );
  assert.ok(header.generation >= 2 && header.baseSeq >= 20, JSON.stringify(header));
  for (let k = 0; k < 5; k++) {
    names.push(`after${k}`);
    await insertWorkflow(writer, `after${k}`);
  }
  assert.equal(
    journalHeader(dbPath).lastSeq,
    writer.seq,
    'the new generation goes on from the records it carried over',
  );
  const fresh = await LedgerStore.open({ dbPath });
  for (const store of [fresh, lagging, writer])
    assert.deepEqual([...workflows(store).keys()].sort(), [...names].sort());
  assert.equal(fresh.seq, writer.seq);
  for (const s of [writer, lagging, fresh]) s.close();
});

test('an image prepared before another process checkpointed is refused and changes nothing', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const store = await LedgerStore.open({ dbPath });
  for (let i = 0; i < 5; i++) await insertWorkflow(store, `w${i}`);
  const paths = storePaths(dbPath);
  const prepared = prepareCheckpointImage(await loadSqlJs(), dbPath, paths.image);
  assert.equal(prepared.seq, store.seq);
  await insertWorkflow(store, 'w5');
  await store.checkpoint();
  const before = snapshotFiles(dbPath);
  assert.equal(installCheckpoint(paths, prepared.tmp, prepared.seq), false);
  assert.equal(fs.existsSync(prepared.tmp), false, 'the refused image is removed');
  assert.deepEqual(snapshotFiles(dbPath), before);
  assert.equal(workflows(store).size, 6);
  store.close();
});

test('kill -9 of two writers at random instants of their background checkpoints loses and doubles no acknowledged write', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const acked: string[] = [];
  const trials = 5;
  for (let t = 0; t < trials; t++) {
    const writers = [startWriter(dbPath, `t${t}a`, 10), startWriter(dbPath, `t${t}b`, 10)];
    // Wait until they write, then let them run into checkpoints for a random while.
    await until('the writers to start', () => writers.every((w) => w.acked().length > 0 || w.stderr() !== ''));
    await new Promise((r) => setTimeout(r, 200 + Math.random() * 1200));
    // A worker compiles sql.js before its first image: on a loaded machine none may have finished
    // within the random whiles, and the trials would test no checkpoint at all. The last trial
    // lets one finish first, then kills at a random instant of the next.
    if (t === trials - 1 && journalHeader(dbPath).generation < 2) {
      await until('a background checkpoint', () => journalHeader(dbPath).generation >= 2);
      await new Promise((r) => setTimeout(r, Math.random() * 500));
    }
    for (const w of writers) await w.kill();
    for (const w of writers) {
      assert.equal(w.stderr(), '', w.stderr());
      acked.push(...w.acked());
    }
    const store = await LedgerStore.open({ dbPath });
    const rows = store.read((db) => db.all<{ name: string }>('SELECT name FROM workflows'));
    store.close();
    const present = new Set(rows.map((r) => r.name));
    assert.equal(present.size, rows.length, `trial ${t + 1}: no write doubled`);
    const lost = acked.filter((name) => !present.has(name));
    assert.deepEqual(lost, [], `trial ${t + 1}: every acknowledged write is there`);
  }
  const { generation } = journalHeader(dbPath);
  assert.ok(
    generation >= 2,
    `background checkpoints ran during the trials (generation ${generation}, ${acked.length} writes)`,
  );
  assert.ok(acked.length > 100, `enough writes were exercised (${acked.length})`);
});

/** Nice value of each thread of this process (Linux: /proc/self/task/<tid>/stat, field 19). */
function threadNices(): Map<string, number> {
  const nices = new Map<string, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      nices.set(tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      /* the thread ended meanwhile */
    }
  }
  return nices;
}

test(
  'the checkpoint worker runs at the lowest CPU priority, and only its own thread does',
  { skip: process.platform !== 'linux' && 'thread nice values are Linux only' },
  async () => {
    const dbPath = path.join(tempDir(), 'ledger.db');
    const store = await LedgerStore.open({ dbPath, checkpointRecords: 20, backgroundCheckpointBytes: 0 });
    const own = threadNices().get(String(process.pid));
    const seen = new Map<string, number>();
    const watch = setInterval(() => {
      for (const [tid, nice] of threadNices()) if (nice !== own) seen.set(tid, nice);
    }, 2);
    try {
      let i = 0;
      while (journalHeader(dbPath).baseSeq === 0) {
        if (i < 400) await insertWorkflow(store, `w${i++}`);
        else await until('the background checkpoint', () => journalHeader(dbPath).baseSeq > 0);
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      clearInterval(watch);
    }
    assert.equal(threadNices().get(String(process.pid)), own, 'the thread that writes keeps its priority');
    assert.deepEqual(
      [...new Set(seen.values())],
      [19],
      `the worker's thread, and no other, changed to nice 19: ${JSON.stringify([...seen])}`,
    );
    const fresh = await LedgerStore.open({ dbPath });
    assert.deepEqual(workflows(fresh), workflows(store), 'the image the worker prepared holds every write');
    for (const s of [store, fresh]) s.close();
  },
);

test('a checkpoint worker is handed sql.js compiled and instantiates it without compiling SQLite again', async () => {
  const dbPath = path.join(tempDir(), 'ledger.db');
  const store = await LedgerStore.open({ dbPath });
  const wasm = compiledSqlJs();
  store.close();
  assert.ok(wasm instanceof WebAssembly.Module, 'opening the store compiled the module');
  // In the worker, once the module is loaded, any compile of bytes fails: only a module it is handed can be instantiated.
  const source = path.join(__dirname, '../../../../src/store/embedded/sqlJs.ts');
  const loadIn = async (given: WebAssembly.Module | undefined): Promise<unknown> => {
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       require('tsx/cjs');
       const { loadSqlJs } = require(${JSON.stringify(source)});
       const refuse = () => Promise.reject(new Error('sql.js compiled again'));
       // SQLite's module is ~650 KB; smaller ones (tsx's lexer) compile as usual.
       const sqlite = (bytes) => !(bytes instanceof WebAssembly.Module) && bytes.byteLength > 200000;
       const { compile, instantiate } = WebAssembly;
       WebAssembly.compile = (bytes) => (sqlite(bytes) ? refuse() : compile.call(WebAssembly, bytes));
       WebAssembly.instantiate = (what, imports) => (sqlite(what) ? refuse() : instantiate.call(WebAssembly, what, imports));
       WebAssembly.compileStreaming = WebAssembly.instantiateStreaming = refuse;
       loadSqlJs(workerData.given).then(
         (SQL) => parentPort.postMessage(new SQL.Database().exec('SELECT 6 * 7')[0].values[0][0]),
         (err) => parentPort.postMessage(err.message),
       );`,
      { eval: true, workerData: { given } },
    );
    try {
      return await new Promise((resolve) => worker.once('message', resolve));
    } finally {
      await worker.terminate();
    }
  };
  assert.equal(await loadIn(wasm), 42);
  assert.equal(await loadIn(undefined), 'sql.js compiled again', 'the refusal in the worker is real');
});
