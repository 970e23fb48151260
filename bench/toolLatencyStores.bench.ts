// The same tools on both stores side by side, in one run: p50/p99 of task_create, task_get,
// task_list, task_update, start_task and log_milestone over stdio (the real SDK client against
// dist/cli.js), on the embedded store and on PostgreSQL over loopback (`--db postgres://…`),
// with PostgreSQL's ratio to the embedded store. The two servers are measured turn about, tool by
// tool, so a change in the machine's load hits both alike. Targets over loopback: write p50
// ≤ 5 ms, read p50 ≤ 2 ms (the store's share; the stdio round trip is the ping row).
// Usage: npm run build && node --import tsx bench/toolLatencyStores.bench.ts [--runs N] [--tasks N]
// PostgreSQL: the server in AGENT_LEDGER_TEST_PG_URL (+ _PASSWORD), else a throwaway one
// (scripts/testPostgres.mjs, Debian's postgresql package).
import os from 'node:os';
import { connect } from '../test/helpers/mcpClient';
import type { LedgerClient } from '../test/helpers/mcpClient';
import { createTestDatabase } from '../test/helpers/postgres';
import { tempRepo } from '../test/helpers/tmp';
import { initLedgerDb } from '../src/store/admin/dbAdmin';
import { measure, ms, percentile, printTable } from './lib/report';
import { benchPostgres } from './lib/benchPostgres';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const runs = Number(arg('--runs', '200'));
const tasks = Number(arg('--tasks', '500'));

interface Side {
  name: string;
  c: LedgerClient;
  workflowId: string;
  taskIds: number[];
  startedIds: string[];
}

async function side(name: string, extraArgs: string[], env?: NodeJS.ProcessEnv): Promise<Side> {
  const repo = tempRepo({ 'src/a.ts': 'a\n' });
  const c = await connect(repo, extraArgs, { env });
  const started = performance.now();
  const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', { name: 'bench' });
  const taskIds: number[] = [];
  for (let i = 0; i < tasks; i++)
    taskIds.push((await c.call<{ id: number }>('task_create', { title: `seed ${i}` })).id);
  console.error(`${name}: ${tasks} tasks made in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { name, c, workflowId: workflow_id, taskIds, startedIds: [] };
}

type Call = (s: Side, i: number) => Promise<unknown>;

const pickTask = (s: Side): number => s.taskIds[Math.floor(Math.random() * s.taskIds.length)];

const calls: [string, 'read' | 'write' | 'baseline', Call][] = [
  ['SDK ping (stdio round trip)', 'baseline', (s) => s.c.client.ping()],
  ['task_get', 'read', (s) => s.c.call('task_get', { id: pickTask(s) })],
  ['task_list (50 of them)', 'read', (s) => s.c.call('task_list', { limit: 50 })],
  [
    'task_create',
    'write',
    async (s, i) => s.taskIds.push((await s.c.call<{ id: number }>('task_create', { title: `bench ${i}` })).id),
  ],
  ['task_update', 'write', (s, i) => s.c.call('task_update', { id: pickTask(s), description: `edit ${i}` })],
  [
    'start_task (git snapshot)',
    'write',
    async (s) =>
      s.startedIds.push(
        (
          await s.c.call<{ task_id: string }>('start_task', {
            workflow_id: s.workflowId,
            name: 't',
            goal: 'g',
            areas: ['src'],
          })
        ).task_id,
      ),
  ],
  [
    'log_milestone',
    'write',
    (s, i) => s.c.call('log_milestone', { task_id: s.startedIds[0], message: `m${i}`, progress: 50 }),
  ],
];

async function main(): Promise<void> {
  const server = await benchPostgres();
  if (!server) return;
  const db = await createTestDatabase();
  try {
    const password = process.env.AGENT_LEDGER_TEST_PG_PASSWORD;
    await initLedgerDb(db.url, { env: { AGENT_LEDGER_DB_PASSWORD: password } });
    const embedded = await side('embedded', []);
    const postgres = await side('PostgreSQL', ['--db', db.url], {
      ...process.env,
      AGENT_LEDGER_DB: undefined,
      AGENT_LEDGER_DB_PASSWORD: password,
      PGPASSWORD: undefined,
    });
    const rows: string[][] = [];
    for (const [label, kind, call] of calls) {
      // Turn about, in slices, so both sides see the same moments of the machine's load.
      const samples = new Map<Side, number[]>([
        [embedded, []],
        [postgres, []],
      ]);
      const slice = Math.max(10, Math.floor(runs / 10));
      for (let done = 0; done < runs; done += slice) {
        for (const s of [embedded, postgres])
          samples
            .get(s)!
            .push(...(await measure(Math.min(slice, runs - done), (i) => call(s, done + i), done === 0 ? 3 : 0)));
      }
      const e = samples.get(embedded)!;
      const p = samples.get(postgres)!;
      const e50 = percentile(e, 50);
      const p50 = percentile(p, 50);
      rows.push([
        label,
        kind,
        ms(e50),
        ms(percentile(e, 99)),
        ms(p50),
        ms(percentile(p, 99)),
        `${(p50 / e50).toFixed(2)}×`,
      ]);
    }
    await embedded.c.close();
    await postgres.c.close();
    const load = os.loadavg()[0].toFixed(1);
    printTable(
      `Tool latency on both stores, ${runs} calls each over stdio at ${tasks}+ tasks (ms; load average ${load} on ${os.cpus().length} cores)`,
      ['call', 'kind', 'embedded p50', 'embedded p99', 'PostgreSQL p50', 'PostgreSQL p99', 'PG / embedded (p50)'],
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
