// The pure scheduling libraries at the sizes issue 12 names, in-process (no store, no MCP):
//  - the stigmergic field with 100,000 marks: stig_snapshot (default and largest page), one mark,
//    a 200-entry batch, a decay of every mark, the folder roll-up for the Explorer; a baseline row
//    (sorting 100k plain objects) gives the scale of the machine the figures were taken on;
//  - contract-net with 50 agents and 1,000 open tasks: announcing them (automatic bids), one
//    award against 1,000 running tasks, and a whole conflict-aware scheduling pass.
// Usage: node --import tsx bench/scheduling.bench.ts [--runs N]
import { batchMark, createField, decay, fieldPoints, mark } from '../src/core/scheduling/stigmergy/stigmergyField';
import type { StigPoint } from '../src/core/scheduling/stigmergy/stigmergyField';
import { snapshot } from '../src/core/scheduling/stigmergy/stigmergySnapshot';
import { rollUpToFolders } from '../src/core/scheduling/stigmergy/stigmergyAreas';
import { announceCall, awardCall } from '../src/core/scheduling/contractNet/contractNet';
import { assignOpenCalls } from '../src/core/scheduling/contractNet/contractNetSchedule';
import type { CnpAgent, CnpCall, RunningTask } from '../src/core/scheduling/contractNet/contractNetModel';
import { measure, ms, percentile, printTable, verdict } from './lib/report';

const runs = Number(process.argv.includes('--runs') ? process.argv[process.argv.indexOf('--runs') + 1] : 20);
const folders = [
  'src/auth',
  'src/api',
  'src/ui',
  'src/db',
  'docs',
  'test/unit',
  'test/e2e',
  'scripts',
  'lib/core',
  'lib/util',
];

function field100k() {
  const points: StigPoint[] = [];
  for (let i = 0; i < 100_000; i++) {
    const node = `${folders[i % folders.length]}/m${Math.floor(i / 40) % 500}/f${i % 97}.ts`;
    points.push({ node_id: node, type: `scope:task-${i % 400}`, intensity: 1 + (i % 13), updated_at: i });
  }
  return createField({}, points);
}

function team(): CnpAgent[] {
  return Array.from({ length: 50 }, (_, i) => ({
    id: `agent-${i}`,
    write: i % 5 === 0 ? ['**'] : [`${folders[i % folders.length]}/**`],
    exclude: i % 7 === 0 ? ['**/*.env'] : [],
    tags: [`skill-${i % 6}`],
    baseCost: 50 + (i % 9) * 10,
    load: i % 3,
  }));
}

function openCalls(agents: CnpAgent[]): CnpCall[] {
  return Array.from({ length: 1000 }, (_, i) =>
    announceCall(
      {
        call_id: `call-${i}`,
        task_id: `task-${i}`,
        tags: [`skill-${i % 6}`],
        writeScope: [`${folders[i % folders.length]}/m${i}/**`],
      },
      agents,
      i,
    ),
  );
}

async function main(): Promise<void> {
  const rows: (string | number)[][] = [];
  const row = (what: string, samples: number[], target: number) => {
    const p50 = percentile(samples, 50);
    rows.push([what, ms(p50), ms(percentile(samples, 95)), `< ${target}`, verdict(p50 < target)]);
  };

  const field = field100k();
  const plain = fieldPoints(field);
  row(
    'baseline: copy and sort 100k plain objects',
    await measure(Math.max(3, runs / 4), () =>
      [...plain].sort((a, b) => b.intensity - a.intensity || (a.node_id < b.node_id ? -1 : 1)),
    ),
    100,
  );
  row('stig_snapshot, 100k marks, page of 100 (default)', await measure(runs, () => snapshot(field, 1e9, 100)), 100);
  row('stig_snapshot, 100k marks, page of 1,000 (maximum)', await measure(runs, () => snapshot(field, 1e9, 1000)), 150);
  row(
    'stig_mark into 100k marks',
    await measure(runs, (i) =>
      mark(field, { node_id: 'src/auth/x.ts', type: 'changed:task-1', intensity: 1 }, 1e9 + i),
    ),
    50,
  );
  const batch = Array.from({ length: 200 }, (_, i) => ({
    node_id: `src/api/b${i}.ts`,
    type: 'scope:task-7',
    intensity: 2,
  }));
  row('stig_batch of 200 into 100k marks', await measure(runs, (i) => batchMark(field, batch, 1e9 + i)), 50);
  row('stig_decay of 100k marks', await measure(Math.max(3, runs / 4), (i) => decay(field, 60_000, 2e9 + i)), 300);
  row(
    'folder roll-up of 100k marks (Explorer)',
    await measure(Math.max(3, runs / 4), () => rollUpToFolders(field)),
    500,
  );

  const agents = team();
  row('cnp_announce ×1,000 with 50 agents (automatic bids)', await measure(3, () => openCalls(agents), 1), 2000);
  const calls = openCalls(agents);
  const running: RunningTask[] = Array.from({ length: 1000 }, (_, i) => ({
    taskId: `run-${i}`,
    agentId: `agent-${i % 50}`,
    writeScope: [`${folders[i % folders.length]}/r${i}/**`],
  }));
  row(
    'one award, 50 bids vs 1,000 running tasks',
    await measure(runs, (i) => awardCall(calls[Math.abs(i) % calls.length], agents, running, 1e6)),
    50,
  );
  row(
    'scheduling pass: 1,000 open calls, 50 agents',
    await measure(3, () => assignOpenCalls(calls, agents, [], 1e6), 1),
    5000,
  );
  const pass = assignOpenCalls(calls, agents, [], 1e6);

  printTable(
    `Scheduling libraries in-process (ms, ${runs} runs unless the row is heavy)`,
    ['operation', 'p50', 'p95', 'target', 'verdict'],
    rows,
  );
  console.log(
    `\nscheduling pass: ${pass.decisions.length} awarded, ${pass.blocked.length} blocked by scope conflicts or no bid`,
  );
}

void main();
