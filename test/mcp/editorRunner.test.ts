/**
 * The runner as the editor runs it (Start Runner): `agent-ledger runner` as a child process
 * started through the domain bundle (dist/ledger.js, what the extension loads), scripted `claude`
 * CLIs on PATH. Stop Instance through the services (the supervisor's record, never a shell), a
 * clean Stop Runner, and no orphan when the parent that started the runner is killed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fakeAgents, workingUntilStopped } from '../helpers/fakeAgents';
import { cliPath } from '../helpers/mcpClient';
import { alive, until } from '../helpers/processes';
import { ledgerEnv } from '../helpers/testLedger';
import { createServices } from '../../src/app/services';
import type { Services } from '../../src/app/services';
import type { RunnerProcess, RunnerProcessEvent, RunnerProcessOptions } from '../../src/app/runner/runnerProcess';
import { pmWorld, runningTask } from './pmHelpers';

import type * as Domain from '../../src/vscode/ledger/domainEntry';

/** The domain bundle the extension loads (built by `npm run build`), as the extension loads it. */
const ledgerBundle = path.resolve(__dirname, '../../dist/ledger.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const domain = (): typeof Domain => require(ledgerBundle) as typeof Domain;

/** Logs in, takes its task, says something, then works for a long time (until stopped). */
const longRun = workingUntilStopped('working on it');

async function servicesOf(repo: string): Promise<Services> {
  const env = ledgerEnv(repo);
  return createServices({ workspace: repo, dbPath: env.AGENT_LEDGER_DB, dbPassword: env.AGENT_LEDGER_DB_PASSWORD });
}

function runnerEnv(repo: string, fakeEnv: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...ledgerEnv(repo), ...fakeEnv })) if (v !== undefined) env[k] = v;
  return env;
}

/** Start Runner's options for `repo`, polling every half second, with the fakes' environment. */
function runnerOptions(repo: string, fakeEnv: Record<string, string>): RunnerProcessOptions {
  return {
    node: process.execPath,
    cliPath,
    workspace: repo,
    logDir: path.join(repo, '.agent-ledger', 'runs'),
    env: runnerEnv(repo, fakeEnv),
    intervalSeconds: 0.5,
  };
}

test('Start Runner’s child process launches an agent, Stop Instance ends it through its record, Stop Runner exits cleanly', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  const services = await servicesOf(repo);
  let runner: RunnerProcess | undefined;
  try {
    const taskId = await runningTask(c, 'Long job', 'coder', 'web');
    const events: RunnerProcessEvent[] = [];
    runner = await domain().startRunnerProcess(runnerOptions(repo, fakes.env(longRun)));
    runner.onDidEmit((e) => events.push(e));
    const launched = await until('the coder to be launched', () => events.find((e) => e.kind === 'launched'));
    assert.equal(launched.kind === 'launched' && launched.instance.agentId, 'coder');

    const [instance] = await until('the running instance in the ledger', async () => {
      const running = await services.instances.running();
      return running.length === 1 && running[0].pid !== null ? running : undefined;
    });
    assert.equal(instance.agentId, 'coder');
    assert.equal(instance.projectName, 'web');
    assert.equal(instance.taskId, taskId);
    assert.equal(instance.taskTitle, 'Long job');
    assert.equal(instance.stoppableHere, true, 'started by this folder’s runner on this machine');
    assert.ok(instance.pid !== null && alive(instance.pid), 'its pid is a live process');
    const agentPid = instance.pid;

    const log = await until('the agent’s line in its log', async () => {
      const slice = await services.instances.readLog(instance.executionId!);
      return slice.entries.some((e) => e.message.includes('working on it')) ? slice : undefined;
    });
    assert.equal(log.status, 'running');
    assert.ok(log.logFile?.startsWith(path.join(repo, '.agent-ledger', 'runs')), 'the log is in the folder’s run logs');

    const stopped = await services.instances.stop(instance.executionId!, { graceMs: 1000 });
    assert.deepEqual(
      { executionId: stopped.executionId, liveness: stopped.liveness, heldTask: stopped.heldTask },
      { executionId: instance.executionId, liveness: 'running', heldTask: taskId },
    );
    const ended = await until('the runner to record the end', () => events.find((e) => e.kind === 'ended'));
    assert.equal(ended.kind === 'ended' && ended.exit.signal, 'SIGTERM', 'ended by the stop, not by itself');
    await until('the agent process to be gone', () => !alive(agentPid));
    const closed = await until('the execution log to close', async () => {
      const detail = await services.executions.get(instance.executionId!);
      return detail.status !== 'running' ? detail : undefined;
    });
    assert.equal(closed.signal, 'SIGTERM');
    assert.deepEqual(await services.instances.running(), [], 'the pair is free again');
    await assert.rejects(
      services.instances.stop(instance.executionId!),
      (e: unknown) => (e as { code?: string }).code === 'InvalidStatus',
      'a run that is over has nothing to stop',
    );

    const stopAt = Date.now();
    const exit = await runner.stop();
    if (exit.exitCode !== 0) console.error(`stop took ${Date.now() - stopAt} ms`, readFileSync(runner.logFile, 'utf8'));
    assert.equal(
      exit.exitCode,
      0,
      `the runner stops cleanly: ${JSON.stringify({ ...exit, tail: exit.tail.slice(-3) })}`,
    );
    assert.ok(!alive(runner.pid), 'the runner process is gone');
    runner = undefined;
  } finally {
    await runner?.stop();
    await services.dispose();
    await c.close();
  }
});

test('a killed parent leaves no orphan: its runner sees its stdin close, stops its agent (execution log written) and exits', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  const services = await servicesOf(repo);
  try {
    await runningTask(c, 'Orphan check', 'coder', 'web');
    const options = runnerOptions(repo, fakes.env(longRun));
    // The parent: starts the runner as the extension does, prints its pid, then waits to be killed.
    const script = `require(${JSON.stringify(ledgerBundle)}).startRunnerProcess(${JSON.stringify(options)}).then((r) => { console.log(r.pid); setInterval(() => {}, 1000); }, (e) => { console.error(e); process.exit(1); });`;
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const runnerPid = await new Promise<number>((resolve, reject) => {
      parent.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      parent.once('exit', (code) => reject(new Error(`the parent exited with ${code}`)));
    });
    const [instance] = await until('the agent to run', async () => {
      const running = await services.instances.running();
      return running.length === 1 && running[0].pid !== null ? running : undefined;
    });
    const agentPid = instance.pid!;
    assert.ok(alive(runnerPid) && alive(agentPid));

    parent.kill('SIGKILL');
    await until('the runner to exit', () => !alive(runnerPid), 30_000);
    await until('its agent to be stopped', () => !alive(agentPid), 30_000);
    const detail = await until('the execution log to close', async () => {
      const d = await services.executions.get(instance.executionId!);
      return d.status !== 'running' ? d : undefined;
    });
    // The runner recorded the agent's real end: its SIGTERM, or the SIGKILL after the grace when a
    // loaded machine kept the agent from exiting in time. A run that vanished has no signal.
    assert.ok(
      detail.signal === 'SIGTERM' || detail.signal === 'SIGKILL',
      `the runner stopped it, it did not vanish: ${JSON.stringify(detail)}`,
    );
  } finally {
    await services.dispose();
    await c.close();
  }
});

/** Whether `pid` is still the runner we started (Linux: its command line; elsewhere: that it lives), so a reused pid is never signalled. */
function stillTheRunner(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('runner');
  } catch (ex) {
    return (ex as NodeJS.ErrnoException).code !== 'ENOENT' && process.platform !== 'linux' && alive(pid);
  }
}

test('SIGTERMs that keep arriving while the runner stops (a second stop, a supervisor escalating) do not turn its clean stop into a kill', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  let runner: RunnerProcess | undefined;
  try {
    // A runner can be gone before the first extra signal (a stop within a millisecond): such a
    // trial proves nothing about extra signals, so another runner is stopped, up to five times.
    let mostSent = 0;
    for (let trial = 0; trial < 5 && mostSent <= 1; trial++) {
      const events: RunnerProcessEvent[] = [];
      runner = await domain().startRunnerProcess(runnerOptions(repo, fakes.env()));
      runner.onDidEmit((e) => events.push(e));
      await until('the runner to poll', () =>
        events.some((e) => e.kind === 'stderr' && e.message.includes('polling every')),
      );
      const { pid } = runner;
      // Stop Runner closes its stdin and signals its group at once; more SIGTERMs follow, every
      // 2 ms, until it has exited: one of them lands while Node tears the process down.
      let exited = false;
      const stopping = runner.stop().finally(() => (exited = true));
      let sent = 0;
      // A burst at once (a stop can be over within 2 ms on a quiet machine), then one every 2 ms.
      for (let i = 0; i < 5 && stillTheRunner(pid); i++) {
        try {
          process.kill(pid, 'SIGTERM');
          sent++;
        } catch {
          break;
        }
      }
      while (!exited && stillTheRunner(pid)) {
        try {
          process.kill(pid, 'SIGTERM');
          sent++;
        } catch {
          break; // gone between the check and the signal
        }
        await new Promise((r) => setTimeout(r, 2));
      }
      const exit = await stopping;
      runner = undefined;
      assert.deepEqual(
        { exitCode: exit.exitCode, signal: exit.signal },
        { exitCode: 0, signal: null },
        `a clean stop, whatever signals came meanwhile (${sent} sent): ${exit.tail.slice(-3).join(' | ')}`,
      );
      mostSent = Math.max(mostSent, sent);
    }
    assert.ok(
      mostSent > 1,
      `more than the stop's own SIGTERM reached a runner in one of the trials (at most ${mostSent} sent)`,
    );
  } finally {
    await runner?.stop();
    await c.close();
  }
});
