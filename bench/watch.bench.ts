// `agent-ledger watch`: from a write committing in one process to its line reaching the reader of
// the watch, in another, on the embedded store and on PostgreSQL (LISTEN/NOTIFY). Baseline in the
// same run: a process that only waits on the store's change wait and prints a line when woken
// (bench/lib/changeWaiter.ts) — the floor any follower of the ledger pays.
// Target: watch p50 ≤ 200 ms.
// Usage: node --import tsx bench/watch.bench.ts [--writes N] [--tasks N]
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServices } from '../src/app/services';
import type { Services } from '../src/app/services';
import { addManyTasks } from '../test/e2e/agentLedger/boardSeed';
import { createTestDatabase } from '../test/helpers/postgres';
import { initLedgerDb } from '../src/store/admin/dbAdmin';
import { benchPostgres } from './lib/benchPostgres';
import { ms, percentile, printTable, verdict } from './lib/report';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const writes = Number(arg('--writes', '40'));
const tasks = Number(arg('--tasks', '2000'));
const cli = path.resolve(__dirname, '../dist/cli.js');

/** A follower process: resolves `next()` with the time its next stdout line arrived. */
function follower(command: string[], env: NodeJS.ProcessEnv) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, command, { env });
  let pending: ((at: number) => void) | undefined;
  const early: number[] = [];
  let buffer = '';
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      buffer = buffer.slice(nl + 1);
      const at = performance.now();
      if (pending) {
        const p = pending;
        pending = undefined;
        p(at);
      } else early.push(at);
    }
  });
  child.stderr.on('data', (d: Buffer) => process.stderr.write(d));
  return {
    next: (): Promise<number> =>
      early.length ? Promise.resolve(early.shift()!) : new Promise<number>((r) => (pending = r)),
    drain: () => early.splice(0),
    stop: () => child.kill('SIGTERM'),
  };
}

async function side(label: string, workspace: string, db: string | undefined, env: NodeJS.ProcessEnv) {
  const services: Services = await createServices({ workspace, dbPath: db });
  await addManyTasks(services.engine, tasks);
  const dbArgs = db ? ['--db', db] : [];
  const watch = follower([cli, 'watch', '--json', '--kind', 'task.queued', '--workspace', workspace, ...dbArgs], env);
  const waiter = follower(['--import', 'tsx', path.join(__dirname, 'lib/changeWaiter.ts'), workspace, ...dbArgs], env);
  await waiter.next(); // ready
  // The watch prints nothing until something happens: one write shows it follows.
  for (;;) {
    await services.tasks.create({ title: 'warm-up', priority: 'medium', type: 'task' });
    const first = await Promise.race([watch.next(), new Promise<null>((r) => setTimeout(() => r(null), 2000))]);
    if (first !== null) break;
  }
  await new Promise((r) => setTimeout(r, 300));
  watch.drain();
  waiter.drain();
  const samples = { watch: [] as number[], waiter: [] as number[] };
  for (let i = 0; i < writes; i++) {
    const watched = watch.next();
    const woken = waiter.next();
    await services.tasks.create({ title: `t${i}`, assignee: 'coder', priority: 'medium', type: 'task' });
    const committed = performance.now();
    samples.watch.push((await watched) - committed);
    samples.waiter.push((await woken) - committed);
    await new Promise((r) => setTimeout(r, 40));
  }
  watch.stop();
  waiter.stop();
  await services.dispose();
  const w50 = percentile(samples.watch, 50);
  const b50 = percentile(samples.waiter, 50);
  return [
    label,
    ms(b50),
    ms(percentile(samples.waiter, 95)),
    ms(w50),
    ms(percentile(samples.watch, 95)),
    `${(w50 / b50).toFixed(2)}×`,
    verdict(w50 <= 200),
  ];
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-watch-bench-'));
  try {
    rows.push(await side('embedded', dir, undefined, { ...process.env, NO_COLOR: '1' }));
    const server = await benchPostgres();
    if (server) {
      const db = await createTestDatabase();
      try {
        const env = {
          ...process.env,
          NO_COLOR: '1',
          AGENT_LEDGER_DB_PASSWORD: process.env.AGENT_LEDGER_TEST_PG_PASSWORD,
          PGPASSWORD: undefined,
        };
        process.env.AGENT_LEDGER_DB_PASSWORD = process.env.AGENT_LEDGER_TEST_PG_PASSWORD;
        await initLedgerDb(db.url, { env: { AGENT_LEDGER_DB_PASSWORD: process.env.AGENT_LEDGER_TEST_PG_PASSWORD } });
        const pgDir = mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-watch-bench-pg-'));
        rows.push(await side('PostgreSQL', pgDir, db.url, env));
        rmSync(pgDir, { recursive: true, force: true });
      } finally {
        await db.drop();
        server.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(
    `write → line in another process, ${writes} writes at ${tasks} tasks (ms; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
    ['store', 'change wait p50', 'change wait p95', 'watch p50', 'watch p95', 'watch / wait (p50)', 'watch ≤ 200 ms'],
    rows,
  );
}

void main();
