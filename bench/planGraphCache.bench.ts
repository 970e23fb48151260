// task_get of a task in a workflow with a big plan graph, through the MCP server (the real SDK
// client over stdio), before and after the per-process cache of the latest plan version
// (src/core/coordination/plans/graphCache.ts), both measured in this run: "before" is the server built
// from the commit just before the cache (bench/lib/baselineBuild.ts), "after" is dist/cli.js.
// Each side gets its own workspace holding the same ledger: a workflow of --nodes tasks whose plan
// graph `wf-<id>` has every task (task i depends on i-1 and i-7) and --history one-operation
// versions after it (so a read replays patches on its checkpoint). Calls alternate before/after.
// Rows: task_get while the plan is unchanged (the cache's case), task_get right after a
// graph_patch (a rebuild on both sides), and mcp_info (the bare round trip).
// Usage: npm run build && node --import tsx bench/planGraphCache.bench.ts [--nodes 1200] [--runs 60] [--history 20] [--base <git ref>]
import { loadavg } from 'node:os';
import { createServices } from '../src/app/services';
import { insertTask } from '../src/core/tasks/taskRepo';
import { connect } from '../test/helpers/mcpClient';
import type { LedgerClient } from '../test/helpers/mcpClient';
import { tempRepo } from '../test/helpers/tmp';
import { buildBaseline, commitBefore } from './lib/baselineBuild';
import { ms, percentile, printTable, ratio, verdict } from './lib/report';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const nodes = Number(arg('--nodes', '1200'));
const runs = Number(arg('--runs', '60'));
const history = Number(arg('--history', '20'));

/** The workflow, its tasks and its plan graph, written in process (the same store code on both sides). */
async function populate(workspace: string): Promise<{ workflowId: number; taskIds: number[] }> {
  const services = await createServices({ workspace });
  const now = new Date().toISOString();
  const seeded = await services.engine.write(async (tx) => {
    const workflowId = await tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [
      'big plan',
      now,
      now,
    ]);
    const taskIds: number[] = [];
    for (let i = 0; i < nodes; i++)
      taskIds.push(
        await insertTask(tx, { title: `step ${i}`, status: i % 3 === 0 ? 'done' : 'open', workflowId }, now),
      );
    return { workflowId, taskIds };
  });
  const graphId = `wf-${seeded.workflowId}`;
  const ops: Record<string, unknown>[] = [];
  seeded.taskIds.forEach((id, i) => {
    ops.push({ op: 'add_node', node: { id: `task-${id}`, attributes: { status: 'open', title: `step ${i}` } } });
    if (i >= 1)
      ops.push({
        op: 'add_edge',
        edge: { from: `task-${seeded.taskIds[i - 1]}`, to: `task-${id}`, label: 'depends_on' },
      });
    if (i >= 7)
      ops.push({
        op: 'add_edge',
        edge: { from: `task-${seeded.taskIds[i - 7]}`, to: `task-${id}`, label: 'depends_on' },
      });
  });
  await services.engine.write((tx) =>
    services.graphs.batchMutateInTransaction(tx, { graph_id: graphId, operations: ops as never }, { correlation: {} }),
  );
  for (let h = 0; h < history; h++) {
    const id = seeded.taskIds[(h * 37) % nodes];
    await services.engine.write((tx) =>
      services.graphs.batchMutateInTransaction(
        tx,
        {
          graph_id: graphId,
          operations: [{ op: 'set_node_attribute', id: `task-${id}`, key: 'owner', value: `h${h}` }] as never,
        },
        { correlation: {} },
      ),
    );
  }
  await services.dispose();
  return seeded;
}

interface Side {
  client: LedgerClient;
  taskIds: number[];
  graphId: string;
}

async function main(): Promise<void> {
  const baseRef = arg('--base', '');
  const baseline = buildBaseline(baseRef || commitBefore('src/core/coordination/plans/graphCache.ts'));
  console.log(
    `before: built from ${baseline.commit.slice(0, 10)} (every task_get replays the plan); after: this checkout's dist/cli.js. Load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const sides: Side[] = [];
  const rows: (string | number)[][] = [];
  try {
    for (const cli of [baseline.cli, undefined]) {
      const repo = tempRepo();
      const seeded = await populate(repo);
      sides.push({
        client: await connect(repo, ['--enable-orchestrator'], cli ? { cli } : {}),
        taskIds: seeded.taskIds,
        graphId: `wf-${seeded.workflowId}`,
      });
    }
    const task = (s: Side, i: number) => s.taskIds[(Math.abs(i) * 7919) % s.taskIds.length];
    type Case = {
      name: string;
      prepare?: (s: Side, i: number) => Promise<unknown>;
      call: (s: Side, i: number) => Promise<unknown>;
    };
    const cases: Case[] = [
      { name: 'mcp_info (round trip)', call: (s) => s.client.call('mcp_info') },
      {
        name: 'task_get, plan unchanged',
        call: async (s, i) => {
          const r = (await s.client.call('task_get', { id: task(s, i) })) as {
            dependencies?: { depends_on: unknown[] };
          };
          if (task(s, i) !== s.taskIds[0] && !r.dependencies?.depends_on.length)
            throw new Error('task_get found no dependency: the plan was not read');
        },
      },
      {
        name: 'task_get right after a graph_patch',
        prepare: (s, i) =>
          s.client.call('graph_patch', {
            graph_id: s.graphId,
            patch: [{ op: 'replace', path: `/nodes/task-${task(s, i + 1)}/attributes/status`, value: `p${i}` }],
          }),
        call: (s, i) => s.client.call('task_get', { id: task(s, i) }),
      },
    ];
    const p50s = new Map<string, [number, number]>();
    for (const c of cases) {
      const samples: [number[], number[]] = [[], []];
      for (let i = -3; i < runs; i++) {
        // Call by call, before then after, so both sides see the same moments of a loaded machine.
        for (const [k, side] of sides.entries()) {
          await c.prepare?.(side, i);
          const start = performance.now();
          await c.call(side, i);
          if (i >= 0) samples[k].push(performance.now() - start);
        }
      }
      const [before, after] = samples.map((s) => percentile(s, 50));
      p50s.set(c.name, [before, after]);
      rows.push([
        c.name,
        ms(before),
        ms(percentile(samples[0], 95)),
        ms(after),
        ms(percentile(samples[1], 95)),
        ratio(after, before),
      ]);
    }
    const [before, after] = p50s.get('task_get, plan unchanged')!;
    const [round] = p50s.get('mcp_info (round trip)')!;
    printTable(
      `task_get in a workflow of ${nodes} tasks with a ${nodes}-node plan graph and ${history} versions after its checkpoint, before vs after the plan cache (${runs} calls each, alternating; ms)`,
      ['call', 'before p50', 'before p95', 'after p50', 'after p95', 'after / before'],
      rows,
    );
    console.log(
      `task_get with the plan unchanged: ${ratio(after, before)} of before (${ms(before)} → ${ms(after)} ms p50; the round trip alone ${ms(round)} ms) — ${verdict(after < before)}`,
    );
  } finally {
    await Promise.all(sides.map((s) => s.client.close()));
    baseline.dispose();
  }
}

void main();
