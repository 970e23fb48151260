// Plan runs (behaviour trees whose task leaves queue agents), measured the way they run:
//  1. In-process over the embedded store, a run of 500 task leaves (a random DAG under one
//     parallel node, each task waiting for up to two earlier ones): the scheduling overhead of one
//     tick — an idle tick (nothing changed: one read), and a tick after a task ended (its
//     dependants queued for their agent, the state and events written) — target ≤ 20 ms.
//     Baseline: one store read through the same port (`SELECT 1`). The verdict reads the process's
//     CPU time (user + system): on a shared 2-core machine the wall clock mostly measures the other
//     processes (both are printed).
//  2. With the real `agent-ledger runner` process and the scripted agent clients: the time from a
//     task's completion (the agent's report_completed, as the ledger records it) to the runner's
//     launch of the task waiting on it, over a chain of tasks; the runner polls every 0.2 s, and
//     the figure with the poll interval taken out is the one the target (≤ 1 s) is about.
// Usage: node --import tsx bench/planRuns.bench.ts [--runs N] [--chain N]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createServices } from '../src/app/services';
import { seededRandom } from '../test/helpers/seededRandom';
import { ms, percentile, printTable, ratio, verdict } from './lib/report';
import {
  dependsOn,
  executionsOf,
  planTask,
  planWorld,
  startRunner,
  untilEnded,
  working,
} from '../test/mcp/planRunHelpers';

const arg = (name: string, fallback: number) =>
  Number(process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const runs = arg('--runs', 30);
const CHAIN = arg('--chain', 6);
const NODES = 500;
const POLL_S = 0.2;

interface Samples {
  wall: number[];
  /** CPU time of this process (user + system): the work itself, whatever else the machine runs. */
  cpu: number[];
}

async function timed(n: number, fn: () => Promise<unknown>): Promise<Samples> {
  for (let i = 0; i < 3; i++) await fn();
  const out: Samples = { wall: [], cpu: [] };
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await fn();
    const c1 = process.cpuUsage(c0);
    out.wall.push(performance.now() - t0);
    out.cpu.push((c1.user + c1.system) / 1000);
  }
  return out;
}

async function tickOverhead(): Promise<(string | number)[][]> {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-bench-plan-'));
  execFileSync('git', ['init', '-q'], { cwd: ws });
  const services = await createServices({ workspace: ws });
  try {
    await services.projects.create({ name: 'web', workingDirectory: '.' });
    await services.projects.addAgent('web', 'coder');
    const ids: number[] = [];
    for (let i = 0; i < NODES; i++)
      ids.push((await services.tasks.create({ title: `task ${i}`, priority: 'medium', type: 'task' })).id);
    const random = seededRandom(7);
    const leaves = ids.map((id, i) => {
      const after = new Set<string>();
      for (let k = 0; k < 2 && i > 0; k++) if (random() < 0.7) after.add(`task-${ids[Math.floor(random() * i)]}`);
      return { type: 'task' as const, node_id: `task-${id}`, ...(after.size ? { after: [...after] } : {}) };
    });
    const started = await services.engine.write((tx) =>
      services.planRuns.startIn(
        tx,
        {
          tree: { id: 'bench', root: { type: 'parallel', id: 'root', policy: 'all', children: leaves } },
          agent: 'coder',
        },
        'bt',
        { opId: 'bench-op' },
      ),
    );
    const runId = started.runId;
    const baseline = await timed(runs, () => services.engine.read((db) => db.get('SELECT 1 AS ok')));
    const idle = await timed(runs, () => services.planRuns.advance(runId));
    // A tick that moves: a queued task ends (written as an agent's report would), the tick sees it,
    // settles its leaf and queues what waited on it.
    const moving: Samples = { wall: [], cpu: [] };
    for (let i = 0; i < runs; i++) {
      const queued = await services.engine.read((db) =>
        db.get<{ id: number }>("SELECT id FROM tasks WHERE status = 'in_progress' ORDER BY id LIMIT 1"),
      );
      if (!queued) break;
      await services.engine.write((tx) =>
        tx.run("UPDATE tasks SET status = 'done', updated_at = ? WHERE id = ?", [new Date().toISOString(), queued.id]),
      );
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      await services.planRuns.advance(runId);
      const c1 = process.cpuUsage(c0);
      moving.wall.push(performance.now() - t0);
      moving.cpu.push((c1.user + c1.system) / 1000);
    }
    const base = percentile(baseline.cpu, 50);
    const row = (what: string, samples: Samples, target: number | null) => [
      what,
      ms(percentile(samples.cpu, 50)),
      ms(percentile(samples.cpu, 95)),
      ms(percentile(samples.wall, 50)),
      ratio(percentile(samples.cpu, 50), base),
      target === null ? '—' : `≤ ${target}`,
      target === null ? '' : verdict(percentile(samples.cpu, 50) <= target),
    ];
    return [
      row('baseline: one store read (SELECT 1)', baseline, null),
      row(`idle tick of a ${NODES}-leaf run (read, nothing to write)`, idle, 20),
      row(`tick after a task ended (${NODES} leaves: settle, queue dependants, write state + events)`, moving, 20),
    ];
  } finally {
    await services.dispose();
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

async function completionToLaunch(): Promise<(string | number)[][]> {
  const agents = ['coder', 'reviewer'];
  const w = await planWorld(agents);
  const chain: string[] = [];
  for (let i = 0; i < CHAIN; i++) chain.push(await planTask(w, `step ${i}`));
  await dependsOn(
    w,
    chain.slice(1).map((t, i) => [chain[i], t] as [string, string]),
  );
  const runner = startRunner(
    w.repo,
    w.fakes.env({ steps: [], byAgent: Object.fromEntries(agents.map((a) => [a, working(300)])) }),
  );
  try {
    // Alternate the agents, so no pair's own run (still exiting after its report) holds the next launch.
    const assign = Object.fromEntries(chain.map((t, i) => [t, agents[i % 2]]));
    const started = await w.orch.call<{ run_id: string }>('plan_run_bt', { graph_id: w.workflowId, agents: assign });
    const ended = await untilEnded(w.orch, started.run_id, 300_000);
    if (ended.status !== 'succeeded') throw new Error(`the chain ${ended.status}: ${ended.reason}`);
    const launches = new Map<string, number>();
    for (const e of runner.events)
      if (e.kind === 'launched') {
        const instance = e.instance as { taskId: string | null };
        if (instance.taskId) launches.set(instance.taskId, e.at as number);
      }
    const raw: number[] = [];
    for (let i = 1; i < chain.length; i++) {
      const [before] = await executionsOf(w.orch, chain[i - 1]);
      const done = Date.parse(before.completedAt!);
      const launched = launches.get(chain[i]);
      if (launched === undefined) throw new Error(`${chain[i]} never launched`);
      raw.push(launched - done);
    }
    const excluded = raw.map((v) => Math.max(0, v - POLL_S * 1000));
    return [
      [
        `completion → next launch, raw (runner polling every ${POLL_S} s)`,
        ms(percentile(raw, 50)),
        ms(Math.max(...raw)),
        '—',
        '',
      ],
      [
        'completion → next launch, poll interval excluded',
        ms(percentile(excluded, 50)),
        ms(Math.max(...excluded)),
        '≤ 1000',
        verdict(percentile(excluded, 50) <= 1000),
      ],
    ];
  } finally {
    await runner.stop();
    await w.orch.close();
  }
}

async function main(): Promise<void> {
  printTable(
    `Plan run ticks at ${NODES} leaves (embedded store, in-process)`,
    ['what', 'CPU p50 ms', 'CPU p95 ms', 'wall p50 ms', '× baseline (CPU)', 'target ms (CPU p50)', ''],
    await tickOverhead(),
  );
  printTable(
    `A task's completion to the launch of the task waiting on it (real runner, scripted agents, chain of ${CHAIN})`,
    ['what', 'p50 ms', 'max ms', 'target ms', ''],
    await completionToLaunch(),
  );
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
