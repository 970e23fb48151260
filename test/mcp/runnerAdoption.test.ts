/**
 * A runner killed with SIGKILL leaves its agents running (a restarted runner adopts them rather
 * than launching them twice). The adopting runner applies the run's wall clock, as the runner that
 * started it would have: a hanging agent does not run on forever because its runner died.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { cliPath } from '../helpers/mcpClient';
import { ledgerEnv } from '../helpers/testLedger';
import { fakeAgents, logIn } from '../helpers/fakeAgents';
import { alive, until } from '../helpers/processes';
import { pmWorld, runnerOnce, runningTask } from './pmHelpers';

test('a restarted runner that adopts a hanging agent stops it at its wall clock and records why', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  let agentPid = 0;
  try {
    // The coder’s definition, as the README writes it: a 12-second wall clock (the adopting runner
    // must be up before it ends, on a loaded machine too; the watchdog ends it a grace later).
    const file = path.join(repo, '.agent-ledger', 'agents', 'coder.yaml');
    fs.writeFileSync(file, `${fs.readFileSync(file, 'utf8')}launch:\n  wall_clock_minutes: 0.2\n`);
    const taskId = await runningTask(c, 'Hang', 'coder', 'web');
    const env = fakes.env({ steps: [logIn, { call: 'get_my_task', args: {} }, { hang: true }] });
    const first = spawn(process.execPath, [cliPath, 'runner', '--json', '--interval', '0.5', '--workspace', repo], {
      env: { ...ledgerEnv(repo), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    first.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const launched = await until('the first runner to launch the coder', () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { kind: string; instance?: { pid: number } })
        .find((e) => e.kind === 'launched'),
    );
    agentPid = launched.instance!.pid;
    // Killed once the run's process is recorded (what a restarted runner adopts from).
    await until('the run’s process to be recorded', async () => {
      const log = await c.call<{ log?: { logFilePath: string | null } }>('get_execution_log', {
        execution_id: 'exec-1',
      });
      return JSON.stringify(log).includes('"logFilePath":"');
    });
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('close', resolve));
    assert.ok(alive(agentPid), 'the agent outlives its runner (to be adopted)');

    const second = runnerOnce(repo, env, [], 40_000);
    assert.equal(second.code, 0, `the adopting runner ended (${second.stderr})`);
    const kinds = second.events.map((e) => e.kind);
    assert.ok(kinds.includes('adopted'), JSON.stringify(second.events));
    const ended = second.events.find((e) => e.kind === 'ended') as { exit: { limit: string | null } } | undefined;
    assert.equal(ended?.exit.limit, 'wallClock');
    await until('the agent to be gone', () => !alive(agentPid), 10_000);
    const logs = await c.call<{ logs: { executionId: string; status: string }[] }>('list_execution_logs', {
      task_id: taskId,
    });
    assert.equal(logs.logs[0]?.status, 'error');
    const log = await c.call('get_execution_log', { execution_id: logs.logs[0].executionId });
    assert.match(JSON.stringify(log), /ran past its time limit/);
  } finally {
    if (agentPid && alive(agentPid)) process.kill(-agentPid, 'SIGKILL');
    await c.close();
  }
});
