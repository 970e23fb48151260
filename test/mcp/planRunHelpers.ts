import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cliPath, connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { ledgerEnv } from '../helpers/testLedger';
import { cliJson } from '../helpers/cli';
import { tempRepo } from '../helpers/tmp';
import type { FakeScript } from '../helpers/fakeAgents';
import { fakeAgents, logIn } from '../helpers/fakeAgents';

/**
 * A workspace for plan runs: project `web` (packages/web) with the agents named (the built-in
 * coder and reviewer, and copies of coder under other names, so several agents of one project run
 * at once: the runner runs one instance per agent and project), an orchestrator server, and
 * scripted agents.
 */
export interface PlanWorld {
  repo: string;
  orch: LedgerClient;
  fakes: ReturnType<typeof fakeAgents>;
  workflowId: string;
}

export async function planWorld(agents: readonly string[]): Promise<PlanWorld> {
  const repo = tempRepo({ 'README.md': '# r\n', 'packages/web/index.js': 'web\n' });
  cliJson(['project', 'create', 'web', '--dir', 'packages/web', '--workspace', repo]);
  cliJson(['project', 'add-agent', 'web', 'coder', '--workspace', repo]);
  const coder = fs.readFileSync(path.join(repo, '.agent-ledger/agents/coder.yaml'), 'utf8');
  for (const agent of agents) {
    if (agent !== 'coder' && agent !== 'reviewer')
      fs.writeFileSync(
        path.join(repo, `.agent-ledger/agents/${agent}.yaml`),
        coder.replace(/^name: coder$/m, `name: ${agent}`),
      );
    if (agent !== 'coder') cliJson(['project', 'add-agent', 'web', agent, '--workspace', repo]);
  }
  const orch = await connect(repo, ['--enable-orchestrator', '--enable-pm']);
  const { workflow_id } = await orch.call<{ workflow_id: string }>('start_workflow', { name: 'plan' });
  return { repo, orch, fakes: fakeAgents(), workflowId: workflow_id };
}

/** An open task of the workflow with the areas it writes (start_task records them; then back to open). */
export async function planTask(w: PlanWorld, title: string, areas: string[] = []): Promise<string> {
  const t = await w.orch.call<{ id: number }>('task_create', { title, description: `do ${title}` });
  await w.orch.call('start_task', { task_id: t.id, workflow_id: w.workflowId, name: title, goal: title, areas });
  await w.orch.call('task_update', { id: t.id, status: 'cancelled' });
  await w.orch.call('task_update', { id: t.id, status: 'open' });
  return `task-${t.id}`;
}

export async function dependsOn(w: PlanWorld, edges: Array<[string, string]>): Promise<void> {
  await w.orch.call('graph_batch_mutate', {
    graph_id: w.workflowId,
    operations: edges.map(([from, to]) => ({ op: 'add_edge', edge: { from, to, label: 'depends_on' } })),
  });
}

/** An agent that logs in, takes its task, works `ms`, and reports `result`. */
export function working(ms: number, result: 'success' | 'failed' = 'success'): Omit<FakeScript, 'byAgent'> {
  return {
    steps: [
      logIn,
      { call: 'get_my_task', args: {} },
      { sleep: ms },
      { call: 'report_completed', args: { result, summary: result === 'success' ? 'done' : 'it broke' } },
    ],
  };
}

export interface RunnerProcess {
  proc: ChildProcess;
  events: Array<Record<string, unknown>>;
  stderr(): string;
  /** Waits until an event matches (or throws after `ms`). */
  until(match: (e: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
  /** What it launched, ended (and why a run failed) and its errors, a line each: for a failure's message. */
  summary(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `agent-ledger runner --json` polling every 0.2 s, as a person leaves it running. */
export function startRunner(repo: string, env: Record<string, string>, extra: string[] = []): RunnerProcess {
  const proc = spawn(
    process.execPath,
    [cliPath, 'runner', '--json', '--interval', '0.2', '--max-parallel', '8', '--workspace', repo, ...extra],
    { env: { ...ledgerEnv(repo), ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const events: Array<Record<string, unknown>> = [];
  let stderr = '';
  let buffer = '';
  const waiters = new Set<() => void>();
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim()) events.push({ ...(JSON.parse(line) as Record<string, unknown>), at: Date.now() });
      for (const w of [...waiters]) w();
    }
  });
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  return {
    proc,
    events,
    stderr: () => stderr,
    until(match, ms = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `runner: no matching event in ${ms} ms; events: ${JSON.stringify(events.map((e) => e.kind))}; stderr: ${stderr}`,
            ),
          );
        }, ms);
        waiters.add(check);
        check();
      });
    },
    summary() {
      return events
        .filter((e) => e.kind !== 'idle' && !(e.kind === 'held' && e.reason === 'noTask'))
        .map((e) => {
          const i = e.instance as { agentId?: string; taskId?: string } | undefined;
          const why = e.kind === 'held' ? `${String(e.reason)}: ${String(e.detail)}` : (e.failure ?? e.message ?? '');
          return [e.kind, i?.agentId ?? e.agentId, i?.taskId ?? e.taskId, why].join(' ');
        })
        .join('\n');
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      await exited;
    },
  };
}

export interface RunStatus {
  run_id: string;
  op_id: string;
  status: string;
  reason: string | null;
  progress: { leaves: number; succeeded: number; failed: number; running: number; skipped: number };
  nodes: Array<{
    id: string;
    type: string;
    status: string;
    reason: string | null;
    task_id: string | null;
    agent: string | null;
    execution_id: string | null;
    attempts: number | null;
    op_id: string | null;
    decided_by: string | null;
  }>;
}

/** Waits (in bounded calls, as an agent would) until the run has ended. */
export async function untilEnded(c: LedgerClient, runId: string, ms = 120_000): Promise<RunStatus> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { runs } = await c.call<{ runs: RunStatus[] }>('plan_status', { run_id: runId, wait_ms: 10_000 });
    if (!['running', 'paused'].includes(runs[0].status)) return runs[0];
    if (Date.now() > deadline) throw new Error(`${runId} still ${runs[0].status}: ${JSON.stringify(runs[0].nodes)}`);
  }
}

export interface Execution {
  executionId: string;
  taskId: string | null;
  agentId: string;
  status: string;
  startedAt: string;
  completedAt: string | null;
}

export async function executionsOf(c: LedgerClient, taskId: string): Promise<Execution[]> {
  return (await c.call<{ logs: Execution[] }>('list_execution_logs', { task_id: taskId, limit: 50 })).logs;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
