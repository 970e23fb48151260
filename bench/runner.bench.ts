// The runner's side of the ledger at the sizes issue 10 names, in-process over the embedded store:
//  - one runner poll (health, the active projects with their agents, should_start for every pair)
//    over 50 agents × 10 projects, with 10,000 tasks in the ledger (target ≤ 50 ms);
//  - an agent instance's calls at 10,000 tasks: authenticate with the launch ticket, get_my_task,
//    and authenticate with a passkey, whose scrypt work is deliberate (a guessed passkey costs as
//    much) — so its row is there to show that cost, not to meet the 5 ms target.
// Baseline: one read of the store through the same port (`SELECT 1`).
// Usage: node --import tsx bench/runner.bench.ts [--runs N]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { agentYaml, defaultAgents } from '../src/core/agents/agentFiles';
import { LedgerForRunner } from '../src/core/runtime/runner/ledgerForRunner';
import { createServices } from '../src/app/services';
import { measure, ms, percentile, printTable, ratio, verdict } from './lib/report';

const runs = Number(process.argv.includes('--runs') ? process.argv[process.argv.indexOf('--runs') + 1] : 30);
const AGENTS = 50;
const PROJECTS = 10;
const TASKS = 10_000;

async function main(): Promise<void> {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-bench-runner-'));
  try {
    execFileSync('git', ['init', '-q'], { cwd: ws });
    fs.mkdirSync(path.join(ws, '.agent-ledger', 'agents'), { recursive: true });
    const template = defaultAgents[0];
    for (let a = 0; a < AGENTS; a++) {
      const name = `agent-${a}`;
      fs.writeFileSync(
        path.join(ws, '.agent-ledger', 'agents', `${name}.yaml`),
        agentYaml({ ...template, name, file: '' }),
      );
    }
    for (let p = 0; p < PROJECTS; p++) fs.mkdirSync(path.join(ws, 'packages', `p${p}`), { recursive: true });
    const services = await createServices({ workspace: ws });
    try {
      for (let p = 0; p < PROJECTS; p++) {
        await services.projects.create({ name: `p${p}`, workingDirectory: `packages/p${p}` });
        for (let a = 0; a < AGENTS; a++) await services.projects.addAgent(`p${p}`, `agent-${a}`);
      }
      const started = Date.now();
      for (let t = 0; t < TASKS; t++) {
        const task = await services.tasks.create({ title: `task ${t}`, priority: 'medium', type: 'task' });
        const agent = `agent-${t % AGENTS}`;
        await services.projectTasks.assign(task.id, agent, `p${t % PROJECTS}`);
        // One task in progress per (agent, project) of the first project: the runner has pairs to say yes to.
        if (t < AGENTS) await services.projectTasks.updateStatus(task.id, 'in_progress');
      }
      console.log(`(set-up: ${TASKS} tasks in ${((Date.now() - started) / 1000).toFixed(1)} s)`);

      const ledger = new LedgerForRunner({
        engine: services.engine,
        projects: services.projects,
        runtime: services.runtime,
        agents: services.agents,
        runnerId: 'bench',
      });
      // What the runner does once per poll: health, the pairs, their decisions in one read.
      const poll = async (): Promise<number> => {
        if (!(await ledger.healthCheck())) throw new Error('unhealthy');
        const pairs = (await ledger.listActiveProjectsWithAgents()).flatMap((p) =>
          p.agents.map((agentId) => ({ agentId, projectId: p.projectId })),
        );
        return (await ledger.startDecisions(pairs)).filter((d) => d.shouldStart).length;
      };
      // The same poll through should_start one pair at a time (what a runner in another process pays per call, minus JSON-RPC).
      const pollOneByOne = async (): Promise<number> => {
        let yes = 0;
        for (const project of await ledger.listActiveProjectsWithAgents()) {
          for (const agent of project.agents)
            if ((await ledger.shouldStart(agent, project.projectId)).shouldStart) yes++;
        }
        return yes;
      };
      if ((await poll()) !== (await pollOneByOne())) throw new Error('the batched decisions differ from should_start');
      if ((await poll()) === 0) throw new Error('no pair should start: the set-up is wrong');

      const baseline = await measure(runs, () => services.engine.read((db) => db.get('SELECT 1 AS ok')));
      const polls = await measure(Math.max(5, Math.round(runs / 3)), poll);
      const slowPolls = await measure(3, pollOneByOne, 1);
      const ticketLogins: number[] = [];
      const myTasks: number[] = [];
      for (let i = 0; i < runs; i++) {
        const agent = `agent-${i % AGENTS}`;
        const target = await ledger.prepareLaunch(agent, 'p0');
        const executionId = await ledger.claimInstance(target);
        if (!executionId) throw new Error(`${agent} is held`);
        const ticket = await ledger.issueLaunchTicket(executionId);
        let t0 = performance.now();
        const session = await services.runtime.authenticateWithTicket(agent, ticket, 'p0');
        ticketLogins.push(performance.now() - t0);
        t0 = performance.now();
        await services.runtime.myTask(session.session_token);
        myTasks.push(performance.now() - t0);
        await services.runtime.logout(session.session_token);
        await ledger.releaseInstance(executionId, 'bench');
      }
      await services.runtime.setPasskey('agent-1', 'bench passkey of enough length');
      const passkeyLogins = await measure(Math.max(3, Math.round(runs / 6)), async () => {
        const s = await services.runtime.authenticate('agent-1', 'bench passkey of enough length', 'p1');
        await services.runtime.logout(s.session_token);
      });

      const base = percentile(baseline, 50);
      const row = (what: string, samples: number[], target: number | null): (string | number)[] => {
        const p50 = percentile(samples, 50);
        return [
          what,
          ms(p50),
          ms(percentile(samples, 95)),
          ratio(p50, base),
          target === null ? '—' : `≤ ${target}`,
          target === null ? 'by design' : verdict(p50 <= target),
        ];
      };
      printTable(
        `Runner at ${AGENTS} agents × ${PROJECTS} projects, ${TASKS.toLocaleString('en')} tasks (embedded store, in-process)`,
        ['what', 'p50', 'p95', '× baseline', 'target ms', ''],
        [
          row('baseline: one store read (SELECT 1)', baseline, null),
          row(`one poll: health + projects + ${AGENTS * PROJECTS} decisions in one read`, polls, 50),
          row(`the same poll, should_start pair by pair`, slowPolls, null),
          row('authenticate with the launch ticket', ticketLogins, 5),
          row('get_my_task (claims the task, binds the run)', myTasks, 5),
          row('authenticate with a passkey (scrypt)', passkeyLogins, null),
        ],
      );
    } finally {
      services.dispose();
    }
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
