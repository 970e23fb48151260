/**
 * A stop sticks: Stop Instance against the real runner (`agent-ledger runner`, started as the
 * editor starts it) holds the task, so the runner does not launch the agent again; the run is
 * recorded as stopped by a person, never as an error; `task get` says so; resuming lets the runner
 * launch it again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { fakeAgents, workingUntilStopped } from '../helpers/fakeAgents';
import { cliPath } from '../helpers/mcpClient';
import { until } from '../helpers/processes';
import { ledgerEnv } from '../helpers/testLedger';
import { cli } from '../helpers/cli';
import { createServices } from '../../src/app/services';
import type { RunnerProcess, RunnerProcessEvent } from '../../src/app/runner/runnerProcess';
import { pmWorld, runningTask } from './pmHelpers';

import type * as Domain from '../../src/vscode/ledger/domainEntry';

const ledgerBundle = path.resolve(__dirname, '../../dist/ledger.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const domain = (): typeof Domain => require(ledgerBundle) as typeof Domain;

const pollSeconds = 0.5;

test('Stop Instance holds the task: no relaunch within two polls, "stopped by" not error, resume launches again', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  const env = ledgerEnv(repo);
  const services = await createServices({
    workspace: repo,
    dbPath: env.AGENT_LEDGER_DB,
    dbPassword: env.AGENT_LEDGER_DB_PASSWORD,
  });
  let runner: RunnerProcess | undefined;
  try {
    const taskId = await runningTask(c, 'Long job', 'coder', 'web');
    const runnerEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...env, ...fakes.env(workingUntilStopped('working on it')) }))
      if (v !== undefined) runnerEnv[k] = v;
    const events: RunnerProcessEvent[] = [];
    runner = await domain().startRunnerProcess({
      node: process.execPath,
      cliPath,
      workspace: repo,
      logDir: path.join(repo, '.agent-ledger', 'runs'),
      env: runnerEnv,
      intervalSeconds: pollSeconds,
    });
    runner.onDidEmit((e) => events.push(e));
    const launches = () => events.filter((e) => e.kind === 'launched').length;
    await until('the coder to be launched', () => launches() === 1 || undefined);
    const [instance] = await until('the running instance', async () => {
      const running = await services.instances.running();
      return running.length === 1 && running[0].pid !== null ? running : undefined;
    });

    const stopped = await services.instances.stop(instance.executionId!, { graceMs: 1000, by: 'ada' });
    assert.equal(stopped.heldTask, taskId);
    assert.equal(stopped.stoppedBy, 'ada');
    const closed = await until('the execution log to close', async () => {
      const detail = await services.executions.get(instance.executionId!);
      return detail.status !== 'running' ? detail : undefined;
    });
    assert.equal(closed.status, 'stopped', 'a stop is not an error');
    assert.equal(closed.summary, 'stopped by ada');
    const ended = await until('the runner to say the run ended', () => events.find((e) => e.kind === 'ended'));
    assert.ok(ended.kind === 'ended', 'ended');
    assert.equal(ended.failure, null, `the runner does not call it a failure: ${JSON.stringify(ended.outcome)}`);

    // Two poll intervals and more: the runner must not launch the held task again.
    await new Promise((resolve) => setTimeout(resolve, pollSeconds * 1000 * 3));
    assert.equal(launches(), 1, 'no relaunch of a stopped task');
    const got = await services.tasks.answer(taskId);
    assert.equal(got.status, 'in_progress', 'the task stays in progress, held — not failed');
    assert.equal(got.hold?.by, 'ada');
    const text = cli(['task', 'get', taskId, '--workspace', repo]);
    assert.match(text.stdout, /held: stopped by ada/);

    // Resume: the runner launches it again.
    const resumed = cli(['task', 'resume', taskId, '--workspace', repo, '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    await until('the coder to be launched again', () => launches() === 2 || undefined);
    assert.equal((await services.tasks.answer(taskId)).hold, null);
    const refused = cli(['task', 'resume', taskId, '--workspace', repo]);
    assert.notEqual(refused.code, 0, 'a task not held has nothing to resume');
  } finally {
    await runner?.stop();
    await services.dispose();
    await c.close();
  }
});
