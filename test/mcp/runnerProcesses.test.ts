/**
 * The runner's process side, against real processes: the scripted `claude` / `codex` on PATH,
 * the real supervisor, and the built `agent-ledger mcp serve` as the server every instance is
 * wired to. The ledger side is a small in-memory `RunnerLedger` here (it records what the runner
 * told it); the runner against the real ledger tools is tested in runnerLedger.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ClientKind } from '../../src/core/runtime/launch/clientLaunch';
import type { ProcessLimits } from '../../src/core/ports/processes';
import { Runner, pairKey } from '../../src/core/runtime/runner/runner';
import { launchTicketFileVariable, launchTicketVariable } from '../../src/core/runtime/runner/runnerLaunch';
import type { RunnerOptions } from '../../src/core/runtime/runner/runner';
import type {
  ActiveProject,
  LaunchTarget,
  RunEnd,
  RunStart,
  RunnerLedger,
} from '../../src/core/runtime/runner/runnerPort';
import { launchClient, readRunUsage } from '../../src/processes/launchClient';
import { ProcessSupervisor } from '../../src/processes/processSupervisor';
import type { FakeScript } from '../helpers/fakeAgents';
import { fakeAgents } from '../helpers/fakeAgents';
import { cliPath } from '../helpers/mcpClient';
import { tempDir } from '../helpers/tmp';

class MemoryLedger implements RunnerLedger {
  readonly starts: RunStart[] = [];
  readonly ends: RunEnd[] = [];
  readonly tickets: string[] = [];
  /** Pairs with work waiting (the ledger's rule 3). */
  readonly wanted = new Set<string>();
  readonly clients = new Map<string, ClientKind>();
  names = new Map<string, string>();
  limits: ProcessLimits = { wallClockMs: 30_000, killGraceMs: 300 };
  private ids = 0;

  constructor(readonly projects: ActiveProject[]) {}

  async healthCheck(): Promise<boolean> {
    return true;
  }
  async listActiveProjectsWithAgents(): Promise<ActiveProject[]> {
    return this.projects;
  }
  async shouldStart(agentId: string, projectId: string): Promise<{ shouldStart: boolean; aiType?: string }> {
    const open = this.starts.some(
      (s) =>
        s.agentId === agentId && s.projectId === projectId && !this.ends.some((e) => e.executionId === s.executionId),
    );
    const yes = this.wanted.has(pairKey(agentId, projectId)) && !open;
    return yes ? { shouldStart: true, aiType: this.clients.get(agentId) ?? 'claude' } : { shouldStart: false };
  }
  async prepareLaunch(agentId: string, projectId: string): Promise<LaunchTarget> {
    const project = this.projects.find((p) => p.projectId === projectId)!;
    return {
      agentId,
      agentName: this.names.get(agentId) ?? agentId,
      projectId,
      projectName: project.projectName,
      taskId: null,
      cwd: project.workingDirectory,
      client: this.clients.get(agentId) ?? 'claude',
      permissions: { level: 'edit', commands: [], never: [] },
      limits: this.limits,
    };
  }
  async issueLaunchTicket(): Promise<string> {
    const ticket = randomBytes(24).toString('base64url');
    this.tickets.push(ticket);
    return ticket;
  }
  readonly claims = new Map<string, string>();
  async claimInstance(target: LaunchTarget): Promise<string | undefined> {
    const key = pairKey(target.agentId, target.projectId);
    const holder = this.claims.get(key);
    if (holder && !this.ends.some((e) => e.executionId === holder)) return undefined;
    const id = `exec_${process.pid}_${++this.ids}`;
    this.claims.set(key, id);
    return id;
  }
  async releaseInstance(executionId: string): Promise<void> {
    for (const [key, id] of this.claims) if (id === executionId) this.claims.delete(key);
  }
  readonly heartbeats: string[][] = [];
  async heartbeat(ids: readonly string[]): Promise<void> {
    this.heartbeats.push([...ids]);
  }
  openRunsList: RunStart[] = [];
  async openRuns(): Promise<RunStart[]> {
    return this.openRunsList;
  }
  async runStarted(run: RunStart): Promise<void> {
    this.starts.push(run);
  }
  async runEnded(run: RunEnd): Promise<void> {
    this.ends.push(run);
  }
}

const optionsOf = new WeakMap<MemoryLedger, RunnerOptions>();

function runnerOptionsOf(s: Setup): RunnerOptions {
  return optionsOf.get(s.ledger)!;
}

interface Setup {
  ledger: MemoryLedger;
  runner: Runner;
  supervisor: ProcessSupervisor;
  logDir: string;
  fakes: ReturnType<typeof fakeAgents>;
  clock: { now: number };
}

const supervisors: ProcessSupervisor[] = [];
test.after(async () => {
  await Promise.all(supervisors.map((s) => s.stopAll(100)));
});

function setup(script: FakeScript, projects?: ActiveProject[], logDir?: string): Setup {
  const workspace = tempDir('agent-ledger-runner-ws-');
  const fakes = fakeAgents();
  const ledger = new MemoryLedger(
    projects ?? [{ projectId: 'prj_a', projectName: 'Project A', workingDirectory: workspace, agents: ['agt_x'] }],
  );
  const supervisor = new ProcessSupervisor();
  supervisors.push(supervisor);
  const clock = { now: Date.now() };
  const dir = logDir ?? path.join(workspace, '.agent-ledger', 'runs');
  const options: RunnerOptions = {
    ledger,
    supervisor,
    launcher: { launch: (plan, options) => launchClient(supervisor, plan, options), usage: readRunUsage },
    ledgerServer: {
      name: 'agent-ledger',
      command: process.execPath,
      args: [cliPath, 'mcp', 'serve', '--workspace', workspace],
    },
    logDir: dir,
    env: fakes.env(script),
    now: () => clock.now,
  };
  optionsOf.set(ledger, options);
  return { ledger, runner: new Runner(options), supervisor, logDir: dir, fakes, clock };
}

test('one instance per (agent, project): a pair that runs is not launched again, the same agent runs in a second project', async () => {
  const second = tempDir('agent-ledger-runner-ws2-');
  const s = setup({ steps: [{ sleep: 1500 }], usage: { costUsd: 0.0123, inputTokens: 10, outputTokens: 5 } });
  s.ledger.projects.push({ projectId: 'prj_b', projectName: 'Project B', workingDirectory: second, agents: ['agt_x'] });
  s.ledger.wanted.add(pairKey('agt_x', 'prj_a'));
  s.ledger.wanted.add(pairKey('agt_x', 'prj_b'));
  const first = await s.runner.poll();
  assert.deepEqual(first.launched.map((l) => l.projectId).sort(), ['prj_a', 'prj_b']);
  const again = await s.runner.poll();
  assert.equal(again.launched.length, 0, 'a running pair is never launched twice');
  assert.equal(again.running, 2);
  await waitFor(() => s.ledger.ends.length === 2);
  const end = s.ledger.ends[0];
  assert.equal(end.exit.exitCode, 0);
  assert.equal(end.usage?.costUsd, 0.0123, 'the cost Claude Code printed is recorded');
  assert.equal(end.usage?.inputTokens, 10);
  assert.ok(fs.existsSync(end.exit.logFile), 'each run has its log file');
  assert.equal(s.runner.list().length, 0, 'an ended run frees its pair');
});

test('two runners polling one ledger at once launch a pair once: the instance is claimed in the ledger', async () => {
  const a = setup({ steps: [{ sleep: 800 }] });
  const b = setup({ steps: [{ sleep: 800 }] }, a.ledger.projects);
  a.ledger.wanted.add(pairKey('agt_x', 'prj_a'));
  // One ledger for both runners, as two machines share one database.
  const runnerB = new Runner({ ...runnerOptionsOf(b), ledger: a.ledger });
  const [ra, rb] = await Promise.all([a.runner.poll(), runnerB.poll()]);
  assert.equal(ra.launched.length + rb.launched.length, 1, 'exactly one launch');
  await waitFor(() => a.ledger.ends.length === 1);
  assert.equal(a.ledger.starts.length, 1);
});

test('the launch ticket sits in no environment: not the client’s, its commands’ or the ledger server’s, which consumes it from a file at start', async () => {
  const s = setup({
    steps: [
      { call: 'mcp_info' },
      { print: { $env: launchTicketVariable } },
      { print: { $env: launchTicketFileVariable } },
    ],
  });
  s.ledger.wanted.add(pairKey('agt_x', 'prj_a'));
  await s.runner.poll();
  await waitFor(() => s.ledger.ends.length === 1);
  const ticket = s.ledger.tickets[0];
  assert.ok(ticket.length > 20);
  assert.equal(s.ledger.ends[0].exit.exitCode, 0, s.ledger.ends[0].exit.tail.join('\n'));
  const [run] = s.fakes.runs();
  assert.ok(!run.argv.some((a) => a.includes(ticket)), 'not on the command line');
  assert.ok(!run.prompt.includes(ticket), 'not in the prompt');
  assert.ok(
    !run.envKeys.includes(launchTicketVariable) && !run.envKeys.includes(launchTicketFileVariable),
    'not in the client’s environment, so not in what its shell commands inherit either',
  );
  const server = run.mcpServers.find((m) => m.name === 'agent-ledger');
  assert.ok(server?.envKeys.includes(launchTicketFileVariable), 'the ledger server is told where the ticket is');
  assert.ok(!server?.envKeys.includes(launchTicketVariable), 'never the ticket itself');
  assert.deepEqual(server?.unresolved, [], 'the reference resolved');
  for (const file of walk(s.logDir))
    assert.ok(!fs.readFileSync(file, 'utf8').includes(ticket), `${file} holds the ticket: it was not consumed`);
  assert.match(run.prompt, /^agent_id: agt_x$/m);
  assert.match(run.prompt, /^project_id: prj_a$/m);
});

test('a crash leaves an execution log with its exit code and cools the pair down instead of relaunching it in a loop', async () => {
  const s = setup({ steps: [{ crash: true }] });
  s.ledger.wanted.add(pairKey('agt_x', 'prj_a'));
  await s.runner.poll();
  await waitFor(() => s.ledger.ends.length === 1);
  assert.equal(s.ledger.ends[0].exit.exitCode, 1);
  const held = await s.runner.poll();
  assert.deepEqual(held.launched, []);
  assert.equal(held.held[0]?.reason, 'coolingDown');
  assert.match(held.held[0]?.detail ?? '', /exited with code 1/);
  s.clock.now += 31_000;
  const retried = await s.runner.poll();
  assert.equal(retried.launched.length, 1, 'after the cooldown it is tried again');
  await waitFor(() => s.ledger.ends.length === 2);
  s.clock.now += 31_000;
  assert.equal((await s.runner.poll()).held[0]?.reason, 'coolingDown', 'the second failure doubles the wait (60 s)');
  s.clock.now += 30_000;
  assert.equal((await s.runner.poll()).launched.length, 1);
  await s.runner.stopAll();
});

test('a hang past the wall clock is killed, recorded with its limit, and frees the pair', async () => {
  const s = setup({ steps: [{ print: 'working' }, { hang: true, ignoreTerm: true }] });
  s.ledger.limits = { wallClockMs: 1200, killGraceMs: 200 };
  s.ledger.wanted.add(pairKey('agt_x', 'prj_a'));
  await s.runner.poll();
  await waitFor(() => s.ledger.ends.length === 1, 15_000);
  const end = s.ledger.ends[0];
  assert.equal(end.exit.limit, 'wallClock');
  assert.ok(end.exit.signal === 'SIGTERM' || end.exit.signal === 'SIGKILL', 'ended by the runner’s signal');
  assert.equal(s.runner.list().length, 0);
});

test('a restarted runner adopts a run still going instead of launching a second instance, and records its end', async () => {
  const first = setup({ steps: [{ hang: true }] });
  first.ledger.wanted.add(pairKey('agt_x', 'prj_a'));
  await first.runner.poll();
  const open = [...first.ledger.starts];
  await waitFor(() => first.ledger.starts.length === 1);
  // The second runner shares the ledger and the log folder, not the process.
  const second = setup({ steps: [] }, first.ledger.projects, first.logDir);
  second.ledger.wanted.add(pairKey('agt_x', 'prj_a'));
  second.ledger.starts.push(...first.ledger.starts);
  second.ledger.openRunsList = open.length ? open : first.ledger.starts;
  await second.runner.recover();
  assert.equal(second.runner.list()[0]?.adopted, true);
  const poll = await second.runner.poll();
  assert.deepEqual(poll.launched, [], 'no second instance');
  assert.ok(await second.runner.stopInstance('agt_x', 'prj_a'));
  await waitFor(() => second.ledger.ends.length === 1, 10_000);
  assert.equal(second.ledger.ends[0].executionId, first.ledger.starts[0].executionId);
  assert.equal(second.runner.list().length, 0);
});

test('names full of shell metacharacters launch only the intended program, with the prompt as one argument', async () => {
  const hostile = '$(touch pwned) `id` ; rm -rf / && echo "x" | tee y\nSECOND LINE';
  const s = setup({ steps: [] });
  s.ledger.names.set('agt_x', hostile);
  s.ledger.projects[0].projectName = hostile;
  s.ledger.wanted.add(pairKey('agt_x', 'prj_a'));
  await s.runner.poll();
  await waitFor(() => s.ledger.ends.length === 1);
  const [run] = s.fakes.runs();
  assert.equal(run.client, 'claude');
  assert.equal(run.argv.at(-1), run.prompt, 'the prompt is the last argument, whole');
  assert.ok(run.prompt.includes('$(touch pwned) `id`'), 'kept as text');
  assert.ok(!/^SECOND LINE/m.test(run.prompt), 'a name cannot add a line to the instructions');
  assert.ok(!fs.existsSync(path.join(run.cwd, 'pwned')));
});

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
