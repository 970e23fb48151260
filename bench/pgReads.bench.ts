// task_get and task_list reads in-process on both engines, without the stdio round trip: the
// answer in one read (`TaskService.answer`) against the three reads task_get made before (task
// with timeline, dependencies, cost), measured turn about in the same run. PostgreSQL over
// loopback: the server in AGENT_LEDGER_TEST_PG_URL (+ _PASSWORD), else a throwaway one.
// Usage: node --import tsx bench/pgReads.bench.ts [--runs N] [--tasks N]
import os from 'node:os';
import type { LedgerEngine } from '../src/core/ports/store';
import { systemClock } from '../src/core/time';
import { TaskService } from '../src/core/tasks/taskService';
import { CostRollupService } from '../src/core/costs/costRollup';
import { dependenciesOf } from '../src/core/tasks/taskDependencies';
import { openEngine } from '../src/store/openEngine';
import { initLedgerDb } from '../src/store/admin/dbAdmin';
import { createTestDatabase } from '../test/helpers/postgres';
import { tempDir } from '../test/helpers/tmp';
import { measure, ms, percentile, printTable } from './lib/report';
import { benchPostgres } from './lib/benchPostgres';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const runs = Number(arg('--runs', '500'));
const tasks = Number(arg('--tasks', '500'));

async function seed(engine: LedgerEngine): Promise<number[]> {
  const service = new TaskService(engine, systemClock);
  const ids: number[] = [];
  for (let i = 0; i < tasks; i++)
    ids.push(Number((await service.create({ title: `task ${i}`, priority: 'medium', type: 'feature' } as never)).id));
  return ids;
}

async function main(): Promise<void> {
  const server = await benchPostgres();
  if (!server) return;
  const db = await createTestDatabase();
  const env = { AGENT_LEDGER_DB_PASSWORD: process.env.AGENT_LEDGER_TEST_PG_PASSWORD };
  try {
    await initLedgerDb(db.url, { env });
    const engines: [string, LedgerEngine][] = [
      ['embedded', await openEngine(`${tempDir()}/.agent-ledger/ledger.db`)],
      ['PostgreSQL', await openEngine(db.url, { env })],
    ];
    const ids = new Map<LedgerEngine, number[]>();
    for (const [, e] of engines) ids.set(e, await seed(e));
    const pick = (e: LedgerEngine): number => ids.get(e)![Math.floor(Math.random() * tasks)];
    const cases: [string, (e: LedgerEngine) => Promise<unknown>][] = [
      [
        'task_get: three reads (before)',
        async (e) => {
          const id = pick(e);
          const task = await new TaskService(e, systemClock).get(id);
          return {
            ...task,
            dependencies: await e.read((r) => dependenciesOf(r, id)),
            cost: await new CostRollupService(e).ofTask(id),
          };
        },
      ],
      ['task_get: one read (now)', (e) => new TaskService(e, systemClock).answer(pick(e))],
      ['task_list (50)', (e) => new TaskService(e, systemClock).list({ limit: 50, offset: 0 })],
      [
        'one-statement read (SELECT 1 row)',
        (e) => e.read((r) => r.get('SELECT id FROM tasks WHERE id = ?', [pick(e)])),
      ],
    ];
    const rows: string[][] = [];
    const base = new Map<string, number>();
    for (const [label, fn] of cases) {
      const samples = new Map<string, number[]>(engines.map(([n]) => [n, []]));
      const slice = Math.max(10, Math.floor(runs / 10));
      for (let done = 0; done < runs; done += slice) {
        for (const [name, e] of engines)
          samples.get(name)!.push(...(await measure(Math.min(slice, runs - done), () => fn(e), done === 0 ? 5 : 0)));
      }
      const cells = engines.flatMap(([name]) => {
        const p50 = percentile(samples.get(name)!, 50);
        if (label.includes('three reads')) base.set(name, p50);
        const b = base.get(name);
        return [
          ms(p50),
          ms(percentile(samples.get(name)!, 99)),
          label.startsWith('task_get') && b ? `${(p50 / b).toFixed(2)}×` : '-',
        ];
      });
      rows.push([label, ...cells]);
    }
    for (const [, e] of engines) await e.close();
    printTable(
      `Reads in-process, ${runs} each at ${tasks} tasks (ms; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
      ['read', 'embedded p50', 'embedded p99', 'vs three reads', 'PostgreSQL p50', 'PostgreSQL p99', 'vs three reads'],
      rows,
    );
  } finally {
    await db.drop();
    server.stop();
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
