// p50/p95 latency of each tracking tool over stdio (the real SDK client against dist/cli.js),
// against the SDK's bare round-trip (ping) measured in the same run.
// Usage: npm run build && node --import tsx bench/toolLatency.bench.ts [--runs N] [--cli <other dist/cli.js>]
import { loadavg } from 'node:os';
import { connect } from '../test/helpers/mcpClient';
import { tempRepo, writeFiles } from '../test/helpers/tmp';
import { measure, ms, percentile, printTable, ratio } from './lib/report';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 100;
// --cli: another build of the server (a before/after comparison runs the bench on each).
const cli = process.argv.includes('--cli') ? process.argv[process.argv.indexOf('--cli') + 1] : undefined;

async function main(): Promise<void> {
  const repo = tempRepo({ 'src/a.ts': 'a\n' });
  const c = await connect(repo, [], { cli });
  const rows: (string | number)[][] = [];
  const record = (name: string, samples: number[], base: number) => {
    const p50 = percentile(samples, 50);
    rows.push([name, ms(p50), ms(percentile(samples, 95)), ratio(p50, base)]);
  };

  const ping = await measure(runs, () => c.client.ping());
  const base = percentile(ping, 50);
  record('SDK ping (baseline)', ping, base);
  record('mcp_info', await measure(runs, () => c.call('mcp_info')), base);

  const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', { name: 'bench' });
  record('start_workflow', await measure(runs, () => c.call('start_workflow', { name: 'bench' })), base);
  const taskIds: string[] = [];
  record(
    'start_task (git snapshot)',
    await measure(
      runs,
      async () =>
        taskIds.push(
          (await c.call<{ task_id: string }>('start_task', { workflow_id, name: 't', goal: 'g', areas: ['src'] }))
            .task_id,
        ),
      0,
    ),
    base,
  );
  const target = taskIds[0];
  record(
    'log_decision',
    await measure(runs, () =>
      c.call('log_decision', { task_id: target, category: 'other', question: 'q', chosen: 'c', reasoning: 'r' }),
    ),
    base,
  );
  record(
    'log_issue',
    await measure(runs, () =>
      c.call('log_issue', { task_id: target, type: 'other', description: 'd', resolution: 'r' }),
    ),
    base,
  );
  record(
    'log_milestone',
    await measure(runs, (i) => c.call('log_milestone', { task_id: target, message: `m${i}`, progress: 50 })),
    base,
  );
  writeFiles(repo, { 'src/a.ts': 'changed\n', 'src/new.ts': 'new\n' });
  let next = 0;
  record(
    'complete_task (git diff)',
    await measure(
      Math.min(runs, taskIds.length),
      () => c.call('complete_task', { task_id: taskIds[next++], status: 'success', outcome: { summary: 's' } }),
      0,
    ),
    base,
  );
  record('resources/read task://', await measure(runs, () => c.client.readResource({ uri: `task://${target}` })), base);
  await c.close();
  printTable(
    `Tool latency over stdio, ${runs} calls each (ms; load average ${loadavg()[0].toFixed(1)}${cli ? `; ${cli}` : ''})`,
    ['call', 'p50', 'p95', 'p50 vs ping'],
    rows,
  );
}

void main();
