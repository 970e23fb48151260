// Runners on several machines racing on one PostgreSQL ledger: three `agent-ledger runner --once`
// processes, each in its own copy of the repository (AGENT_LEDGER_MACHINE differs), polling the
// same database at the same moment, launch the (agent, project) pair with work exactly once —
// the instance is claimed in the shared ledger, not in any one machine's memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FakeScript } from '../helpers/fakeAgents';
import { fakeAgents } from '../helpers/fakeAgents';
import { cliPath } from '../helpers/mcpClient';
import { createTestDatabase, pgPassword, pgSkip } from '../helpers/postgres';
import { tempDir } from '../helpers/tmp';
import { initLedgerDb } from '../../src/store/admin/dbAdmin';
import { alive, until } from '../helpers/processes';
import { pmWorld, runningTask } from './pmHelpers';

/** `agent-ledger runner --once --json` as a process; resolves with its exit code and events. */
function runOnce(
  workspace: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; events: Array<Record<string, unknown>>; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, 'runner', '--once', '--json', '--workspace', workspace], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const events = out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code, events, stderr: err });
    });
  });
}

test(
  'three machines’ runners polling one PostgreSQL ledger at once launch a pair once',
  { skip: pgSkip, timeout: 480_000 },
  async () => {
    const db = await createTestDatabase();
    const saved = { ...process.env };
    // Every CLI call and server of this test (pmHelpers, the runners) reaches this database.
    Object.assign(process.env, { AGENT_LEDGER_DB: db.url, AGENT_LEDGER_DB_PASSWORD: pgPassword });
    const fakes = fakeAgents();
    try {
      await initLedgerDb(db.url, { env: { AGENT_LEDGER_DB_PASSWORD: pgPassword } });
      const { repo, c } = await pmWorld();
      try {
        const taskId = await runningTask(c, 'Shared login page', 'coder', 'web');
        // Each machine: its own copy of the repository (with the agent definitions), the same database.
        const clones = [0, 1, 2].map(() => {
          const clone = path.join(tempDir('agent-ledger-runner-machine-'), 'repo');
          fs.cpSync(repo, clone, { recursive: true });
          return clone;
        });
        const script: FakeScript = {
          steps: [
            {
              call: 'authenticate',
              args: { agent_id: { $prompt: 'agent_id' }, project_id: { $prompt: 'project_id' } },
            },
            { call: 'get_my_task', args: {} },
            // Long enough that every machine polls while it runs (and says who runs it).
            { sleep: 6000 },
            { call: 'report_completed', args: { result: 'success', summary: 'done once' } },
          ],
        };
        const env = fakes.env(script);
        const results = await Promise.all(
          clones.map((clone, m) => runOnce(clone, { ...process.env, ...env, AGENT_LEDGER_MACHINE: `machine-${m}` })),
        );
        for (const r of results) assert.equal(r.code, 0, r.stderr);
        const launches = results.flatMap((r, m) =>
          r.events
            .filter((e) => e.kind === 'launched')
            .map((e) => ({ machine: m, agent: (e.instance as { agentId: string }).agentId })),
        );
        assert.equal(
          launches.filter((l) => l.agent === 'coder').length,
          1,
          `coder launched once across the machines: ${JSON.stringify(launches)}`,
        );
        // The other machines say who runs it: the launching machine's runner (its host and log folder).
        const launcher = results.findIndex((r) => r.events.some((e) => e.kind === 'launched'));
        for (const [m, r] of results.entries()) {
          if (m === launcher) continue;
          const held = r.events.find((e) => e.kind === 'held' && e.agentId === 'coder' && e.projectId === 'prj-1');
          assert.equal(held?.reason, 'running', JSON.stringify(r.events));
          assert.match(
            String((held?.heldBy as { runnerId: string | null } | undefined)?.runnerId),
            new RegExp(`:${clones[launcher].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\.agent-ledger/runs`),
          );
          assert.match(String(held?.detail), /^coder runs in prj-1 from another runner \(/);
        }
        assert.equal(
          fakes.runs().filter((r) => r.argv.join(' ').includes('coder') || JSON.stringify(r).includes('coder')).length,
          1,
          'one coder process ran',
        );
        const logs = await c.call<{ logs: Array<{ agentId: string; status: string }> }>('list_execution_logs', {
          task_id: taskId,
        });
        assert.deepEqual(
          logs.logs.map((l) => [l.agentId, l.status]),
          [['coder', 'completed']],
          'one execution, recorded in the shared ledger',
        );
        // A second round finds the work done: nobody launches it again.
        const again = await Promise.all(
          clones.map((clone, m) => runOnce(clone, { ...process.env, ...env, AGENT_LEDGER_MACHINE: `machine-${m}` })),
        );
        const relaunched = again.flatMap((r) => r.events.filter((e) => e.kind === 'launched'));
        assert.equal(relaunched.length, 0, `nothing launched again: ${JSON.stringify(relaunched)}`);
      } finally {
        await c.close();
      }
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
      await db.drop();
    }
  },
);

/** Whether `pid` still runs: a zombie (its frozen runner cannot reap it) has ended. */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return alive(pid);
  }
}

test(
  'a runner frozen on one machine: the other machine takes its pair over only once the frozen runner’s agent is gone',
  { skip: pgSkip, timeout: 480_000 },
  async () => {
    const db = await createTestDatabase();
    const saved = { ...process.env };
    Object.assign(process.env, { AGENT_LEDGER_DB: db.url, AGENT_LEDGER_DB_PASSWORD: pgPassword });
    const fakes = fakeAgents();
    const agents: number[] = [];
    let frozen: ReturnType<typeof spawn> | undefined;
    try {
      await initLedgerDb(db.url, { env: { AGENT_LEDGER_DB_PASSWORD: pgPassword } });
      const { repo, c } = await pmWorld();
      try {
        // The coder's wall clock is 9 s (its definition, as the README writes it).
        const file = path.join(repo, '.agent-ledger', 'agents', 'coder.yaml');
        fs.writeFileSync(file, `${fs.readFileSync(file, 'utf8')}launch:\n  wall_clock_minutes: 0.15\n`);
        await runningTask(c, 'Shared login page', 'coder', 'web');
        const [machineA, machineB] = [0, 1].map(() => {
          const clone = path.join(tempDir('agent-ledger-runner-machine-'), 'repo');
          fs.cpSync(repo, clone, { recursive: true });
          return clone;
        });
        const script: FakeScript = {
          steps: [
            {
              call: 'authenticate',
              args: { agent_id: { $prompt: 'agent_id' }, project_id: { $prompt: 'project_id' } },
            },
            { call: 'get_my_task', args: {} },
            { hang: true },
          ],
        };
        // A runner whose heartbeat is 2 s old is stale (instead of 2 minutes), to see a takeover in a test.
        const env = { ...process.env, ...fakes.env(script), AGENT_LEDGER_RUNNER_STALE_SECONDS: '2' };
        frozen = spawn(process.execPath, [cliPath, 'runner', '--json', '--interval', '0.5', '--workspace', machineA], {
          env: { ...env, AGENT_LEDGER_MACHINE: 'machine-a' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        frozen.stdout!.on('data', (d: Buffer) => (out += d.toString()));
        const launched = await until('machine A to launch the coder', () =>
          out
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as { kind: string; instance?: { pid: number } })
            .find((e) => e.kind === 'launched'),
        );
        const first = launched.instance!.pid;
        agents.push(first);
        frozen.kill('SIGSTOP');
        await new Promise((resolve) => setTimeout(resolve, 3000));
        assert.ok(running(first), 'the frozen runner’s agent keeps running');

        const b = (extra: Record<string, string> = {}) =>
          runOnce(machineB, { ...env, AGENT_LEDGER_MACHINE: 'machine-b', ...extra });
        const early = await b();
        assert.equal(early.code, 0, early.stderr);
        const launchedEarly = early.events.filter((e) => e.kind === 'launched');
        for (const e of launchedEarly) agents.push((e.instance as { pid: number }).pid);
        assert.deepEqual(launchedEarly, [], 'no second coder while the first may still run (the heartbeat is stale)');

        // The first agent's own wall clock ends it even though its runner is frozen.
        await until('the frozen runner’s agent to end at its wall clock', () => !running(first), 30_000);
        const later = await until(
          'machine B to take the pair over',
          async () => {
            const r = await b();
            const started = r.events.filter((e) => e.kind === 'launched');
            for (const e of started) agents.push((e.instance as { pid: number }).pid);
            return started.length > 0 ? r : undefined;
          },
          90_000,
        );
        assert.equal(later.code, 0, later.stderr);
        assert.equal(running(first), false, 'taken over only once the first agent was gone');
        const logs = await c.call<{ logs: Array<{ executionId: string; status: string }> }>('list_execution_logs', {});
        assert.equal(logs.logs.length, 2, JSON.stringify(logs));
      } finally {
        await c.close();
      }
    } finally {
      if (frozen && frozen.exitCode === null) {
        frozen.kill('SIGKILL');
        frozen.kill('SIGCONT');
      }
      for (const pid of agents) if (alive(pid)) process.kill(-pid, 'SIGKILL');
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
      await db.drop();
    }
  },
);
