// The store engines side by side, in one run: per-call latency of the synchronous embedded store
// (the baseline), the asynchronous embedded engine (the cost of the async port) and PostgreSQL over
// loopback; the wake-up latency of a waiting call after another process's write on each engine;
// write throughput with several writers on PostgreSQL (every write takes the one commit lock);
// and the alternative design of a local sql.js replica fed from the server (its initial load and
// memory per process at 10k and 50k tasks).
// Write = a milestone and its event in one transaction (what log_milestone does); read = a task
// and its milestones (what task_get reads). Targets over loopback: write p50 ≤ 5 ms, read p50 ≤ 2 ms.
// Usage: node --import tsx bench/storeEngines.bench.ts [--runs N] [--replica 10000,50000]
// PostgreSQL: the server in AGENT_LEDGER_TEST_PG_URL (+ _PASSWORD), else a throwaway one
// (scripts/testPostgres.mjs, Debian's postgresql package).
import * as path from 'node:path';
import { Pool } from 'pg';
import { spawn, spawnSync } from 'node:child_process';
import type { LedgerEngine } from '../src/store/engine';
import { EmbeddedEngine } from '../src/store/embedded/embeddedEngine';
import { LedgerStore } from '../src/store/embedded/ledgerStore';
import { PostgresEngine } from '../src/store/postgres/postgresEngine';
import { createTestDatabase, pgEnv } from '../test/helpers/postgres';
import { tempDir } from '../test/helpers/tmp';
import { measure, ms, percentile, printTable, ratio, verdict } from './lib/report';
import { replicaLoad, seedTasks } from './lib/replicaLoad';
import { benchPostgres } from './lib/benchPostgres';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const runs = Number(arg('--runs', '500'));
const replicaSizes = arg('--replica', '10000,50000').split(',').map(Number);
const TASKS = 1000;
const now = (): number => performance.timeOrigin + performance.now();

const WRITE = [
  'INSERT INTO milestones (task_id, message, progress, created_at) VALUES (?, ?, ?, ?)',
  "INSERT INTO events (ts, kind, task_id, payload) VALUES (?, 'milestone.logged', ?, ?)",
] as const;
const READ = ['SELECT * FROM tasks WHERE id = ?', 'SELECT * FROM milestones WHERE task_id = ? ORDER BY id'] as const;
const pick = (): number => 1 + Math.floor(Math.random() * TASKS);

async function engineOps(engine: LedgerEngine): Promise<{ write: number[]; read: number[] }> {
  await seedTasks(engine, TASKS);
  const write = await measure(runs, async (i) => {
    const task = pick();
    await engine.write(async (tx) => {
      await tx.insert(WRITE[0], [task, `bench ${i}`, 60, 't']);
      await tx.insert(`${WRITE[1]} RETURNING seq`, ['t', task, '{}']);
    });
  });
  const read = await measure(runs, async () => {
    const task = pick();
    await engine.read(async (db) => [await db.get(READ[0], [task]), await db.all(READ[1], [task])]);
  });
  return { write, read };
}

async function syncOps(dbPath: string): Promise<{ write: number[]; read: number[] }> {
  const seeder = await EmbeddedEngine.open({ dbPath });
  await seedTasks(seeder, TASKS);
  await seeder.close();
  const store = await LedgerStore.open({ dbPath });
  const write = await measure(runs, async (i) => {
    const task = pick();
    await store.write((tx) => {
      tx.run(WRITE[0], [task, `bench ${i}`, 60, 't']);
      tx.run(WRITE[1], ['t', task, '{}']);
    });
  });
  const read = await measure(runs, () => {
    const task = pick();
    store.read((db) => [db.get(READ[0], [task]), db.all(READ[1], [task])]);
  });
  store.close();
  return { write, read };
}

/** Wake-up of a waiting call in this process after a write by another process (engineWriter.fixture.ts ping). */
async function wakeUps(
  engine: LedgerEngine,
  location: string,
  env: NodeJS.ProcessEnv,
  count = 30,
): Promise<{ fromCall: number[]; fromAck: number[] }> {
  const fixture = path.join(__dirname, '..', 'test', 'unit', 'store', 'engines', 'engineWriter.fixture.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, location, 'ping'], { env, stdio: 'pipe' });
  const waiting: ((line: string) => void)[] = [];
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      waiting.shift()?.(line);
    }
  });
  await new Promise<string>((r) => waiting.push(r)); // 'ready'
  const fromCall: number[] = [];
  const fromAck: number[] = [];
  for (let i = 0; i < count + 3; i++) {
    const woke = engine.waitForChange(engine.seq, { timeoutMs: 10_000 }).then(() => now());
    const line = new Promise<string>((r) => waiting.push(r));
    child.stdin.write('go\n');
    const [at, text] = await Promise.all([woke, line]);
    const [, , before, after] = text.split(' ').map(Number);
    if (i < 3) continue; // warm-up
    fromCall.push(at - before);
    fromAck.push(at - after); // negative: the waiter woke before the writer had its own answer
  }
  child.stdin.end();
  await new Promise((r) => child.on('close', r));
  return { fromCall, fromAck };
}

/** The same writes without the commit lock (plain BEGIN … COMMIT through node-postgres): what the lock costs. */
async function unlockedThroughput(url: string, writers: number, durationMs = 2000): Promise<number> {
  const target = new URL(url);
  const pools = Array.from(
    { length: writers },
    () =>
      new Pool({
        host: target.hostname,
        port: Number(target.port),
        user: target.username,
        database: target.pathname.slice(1),
        password: pgEnv.AGENT_LEDGER_DB_PASSWORD,
        max: 1,
      }),
  );
  let done = 0;
  const until = Date.now() + durationMs;
  await Promise.all(
    pools.map(async (pool) => {
      const client = await pool.connect();
      while (Date.now() < until) {
        await client.query('BEGIN');
        await client.query(
          'INSERT INTO milestones (task_id, message, progress, created_at) VALUES ($1, $2, $3, $4) RETURNING id',
          [pick(), 'tp', 1, 't'],
        );
        await client.query(
          "INSERT INTO events (ts, kind, task_id, payload) VALUES ($1, 'milestone.logged', $2, $3) RETURNING seq",
          ['t', 1, '{}'],
        );
        await client.query('COMMIT');
        done++;
      }
      client.release();
      await pool.end();
    }),
  );
  return done / (durationMs / 1000);
}

/** Writes per second with `writers` engines (own pools) writing at once for `ms`. */
async function throughput(url: string, writers: number, durationMs = 2000): Promise<number> {
  const engines = await Promise.all(Array.from({ length: writers }, () => PostgresEngine.open({ url, env: pgEnv })));
  let done = 0;
  const until = Date.now() + durationMs;
  await Promise.all(
    engines.map(async (e) => {
      while (Date.now() < until) {
        await e.write(async (tx) => {
          await tx.insert(WRITE[0], [pick(), 'tp', 1, 't']);
          await tx.insert(`${WRITE[1]} RETURNING seq`, ['t', 1, '{}']);
        });
        done++;
      }
    }),
  );
  await Promise.all(engines.map((e) => e.close()));
  return done / (durationMs / 1000);
}

async function main(): Promise<void> {
  if (process.argv.includes('--replica-child')) return replicaChild();
  const server = await benchPostgres();
  if (!server) return;
  pgEnv.AGENT_LEDGER_DB_PASSWORD ??= process.env.AGENT_LEDGER_TEST_PG_PASSWORD;
  try {
    const sync = await syncOps(path.join(tempDir(), 'sync', 'ledger.db'));
    const embeddedPath = path.join(tempDir(), 'async', 'ledger.db');
    const embedded = await EmbeddedEngine.open({ dbPath: embeddedPath });
    const asyncOps = await engineOps(embedded);
    const db = await createTestDatabase();
    const pg = await PostgresEngine.open({ url: db.url, env: pgEnv, migrate: true });
    const pgOps = await engineOps(pg);
    const w50 = percentile(sync.write, 50);
    const r50 = percentile(sync.read, 50);
    const row = (name: string, o: { write: number[]; read: number[] }, targets: boolean) => [
      name,
      ms(percentile(o.write, 50)),
      ms(percentile(o.write, 99)),
      ratio(percentile(o.write, 50), w50),
      ms(percentile(o.read, 50)),
      ms(percentile(o.read, 99)),
      ratio(percentile(o.read, 50), r50),
      targets ? verdict(percentile(o.write, 50) <= 5 && percentile(o.read, 50) <= 2) : '-',
    ];
    printTable(
      `Per-call latency, ${runs} calls each, ${TASKS} tasks (ms; ratios against the synchronous embedded store, measured in this run)`,
      ['store', 'write p50', 'write p99', 'write ×', 'read p50', 'read p99', 'read ×', 'target'],
      [
        row('embedded, synchronous (today)', sync, false),
        row('embedded, async engine', asyncOps, true),
        row('PostgreSQL 15, loopback', pgOps, true),
      ],
    );

    const wakeEmbedded = await wakeUps(embedded, embeddedPath, { ...process.env });
    const wakePg = await wakeUps(pg, db.url, pgEnv);
    const wakeRow = (name: string, w: { fromCall: number[]; fromAck: number[] }) => [
      name,
      ms(percentile(w.fromCall, 50)),
      ms(percentile(w.fromCall, 99)),
      ms(percentile(w.fromAck, 50)),
      ms(percentile(w.fromAck, 99)),
      verdict(percentile(w.fromCall, 50) <= 100),
    ];
    printTable(
      'Wake-up of a waiting call after another process’s write (ms, 30 writes): from the writer’s call, and from its acknowledgement',
      ['engine', 'from call p50', 'from call p99', 'from ack p50', 'from ack p99', 'target ≤ 100 p50'],
      [wakeRow('embedded (inotify + 1 s poll)', wakeEmbedded), wakeRow('PostgreSQL (LISTEN/NOTIFY)', wakePg)],
    );
    await embedded.close();
    await pg.close();

    const tpRows: string[][] = [];
    let single = 0;
    for (const writers of [1, 4, 9]) {
      const locked = await throughput(db.url, writers);
      const free = await unlockedThroughput(db.url, writers);
      single ||= locked;
      tpRows.push([String(writers), locked.toFixed(0), ratio(locked, single), free.toFixed(0), ratio(locked, free)]);
    }
    printTable(
      'PostgreSQL write throughput (writes/s, 2 s each): the engine (every write holds the commit lock) against the same statements without it',
      ['writers (own pools)', 'engine writes/s', '× one writer', 'no lock writes/s', 'engine / no lock'],
      tpRows,
    );
    await db.drop();

    const replicaRows: (string | number)[][] = [];
    for (const size of replicaSizes) {
      const rdb = await createTestDatabase();
      const seeder = await PostgresEngine.open({ url: rdb.url, env: pgEnv, migrate: true });
      await seedTasks(seeder, size);
      await seeder.close();
      const r = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--replica-child', rdb.url], {
        env: { ...pgEnv },
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(r.stderr);
      const m = JSON.parse(r.stdout.trim().split('\n').pop()!);
      replicaRows.push([
        size,
        ms(m.loadMs),
        `${m.imageMiB.toFixed(1)} MiB`,
        `${m.rssMiB.toFixed(0)} MiB`,
        `${m.baseRssMiB.toFixed(0)} MiB`,
      ]);
      await rdb.drop();
    }
    printTable(
      'Alternative: a local sql.js replica fed from the server (tasks + a milestone and an event each), per process',
      ['tasks', 'initial load (ms)', 'replica image', 'RSS after load', 'RSS before'],
      replicaRows,
    );
  } finally {
    server.stop();
  }
}

/** In a child process of its own (clean RSS): load the whole ledger from `url` into a fresh sql.js database. */
async function replicaChild(): Promise<void> {
  const url = process.argv[process.argv.indexOf('--replica-child') + 1];
  const pg = await PostgresEngine.open({ url, env: process.env });
  const result = await replicaLoad(pg);
  await pg.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
