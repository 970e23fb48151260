// task_list and task_get latency over stdio (the real SDK client against dist/cli.js) with
// 1,000 and 10,000 tasks in the store, against the bare round trip of mcp_info measured in
// the same run. Targets: p50 under 5 ms, and flat — at 10,000 tasks within 1.5× of the
// figure at 1,000 (the queries use indexes and pages, never a scan of every task).
// Usage: npm run build && node --import tsx bench/taskTools.bench.ts [--sizes 1000,10000] [--runs N]
import { createServices } from '../src/app/services';
import { insertTask } from '../src/core/tasks/taskRepo';
import { priorities, taskStatuses, taskTypes } from '../src/core/tasks/taskModel';
import { connect } from '../test/helpers/mcpClient';
import { tempRepo } from '../test/helpers/tmp';
import { measure, ms, percentile, printTable, ratio, verdict } from './lib/report';

const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const sizes = (process.argv.includes('--sizes') ? arg('--sizes') : '1000,10000').split(',').map(Number);
const runs = Number(process.argv.includes('--runs') ? arg('--runs') : 200);

/** `count` varied tasks written in one transaction, then folded into the image like a long-lived store. */
async function populate(workspace: string, count: number): Promise<void> {
  const services = await createServices({ workspace });
  const now = new Date().toISOString();
  await services.engine.write(async (tx) => {
    for (let i = 0; i < count; i++) {
      await insertTask(
        tx,
        {
          title: `Task ${i}: implement part ${i % 97} of the feature`,
          description: `Description of task ${i}. `.repeat(4),
          status: taskStatuses[i % taskStatuses.length],
          priority: priorities[i % priorities.length],
          type: taskTypes[i % taskTypes.length],
          labels: [`area-${i % 13}`, `sprint-${i % 7}`],
          assignee: i % 3 === 0 ? 'coder' : i % 3 === 1 ? 'reviewer' : null,
          assigneeType: i % 3 === 2 ? null : 'ai',
        },
        now,
      );
    }
  });
  await (services.engine as unknown as { checkpoint(): Promise<void> }).checkpoint();
  await services.dispose();
}

async function main(): Promise<void> {
  const rows: (string | number)[][] = [];
  const first = new Map<string, number>();
  for (const size of sizes) {
    const repo = tempRepo();
    await populate(repo, size);
    const c = await connect(repo);
    const base = percentile(await measure(runs, () => c.call('mcp_info')), 50);
    const row = (name: string, samples: number[]) => {
      const p50 = percentile(samples, 50);
      if (!first.has(name)) first.set(name, p50);
      const flat = p50 / first.get(name)!;
      rows.push([
        size,
        name,
        ms(p50),
        ms(percentile(samples, 95)),
        ratio(p50, base),
        `${flat.toFixed(2)}×`,
        verdict(p50 < 5 && flat <= 1.5),
      ]);
    };
    rows.push([size, 'mcp_info (baseline)', ms(base), '', '1.00×', '', '']);
    row('task_list (first page of 20)', await measure(runs, () => c.call('task_list')));
    row(
      'task_list status=open, limit 100',
      await measure(runs, () => c.call('task_list', { status: 'open', limit: 100 })),
    );
    row(
      'task_list assignee=coder, deep page',
      await measure(runs, () => c.call('task_list', { assignee: 'coder', offset: Math.floor(size / 6) })),
    );
    row('task_get', await measure(runs, (i) => c.call('task_get', { id: 1 + ((Math.abs(i) * 7919) % size) })));
    await c.close();
  }
  printTable(
    `task_list / task_get over stdio, ${runs} calls each (ms; target p50 < 5 ms and ≤ 1.5× the ${sizes[0]}-task figure)`,
    ['tasks', 'call', 'p50', 'p95', 'p50 vs mcp_info', `vs ${sizes[0]} tasks`, 'target'],
    rows,
  );
}

void main();
