// The child-runtime service on both engines, with real processes under the real supervisor: every
// statement of the children table runs on SQLite and PostgreSQL, and a second service (another
// server process of the same machine, as far as ownership goes) lists, reads and stops a child.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { ChildService } from '../../../../../src/core/runtime/children/childService';
import { createChildBatch } from '../../../../../src/core/runtime/children/childBatch';
import {
  childCreateInput,
  childSpawnCodexInput,
  childOutput,
} from '../../../../../src/core/runtime/children/childContracts';
import { effectiveLimits } from '../../../../../src/core/runtime/children/childLimits';
import type { LedgerEngine } from '../../../../../src/core/ports/store';
import { ProcessSupervisor } from '../../../../../src/processes/processSupervisor';
import type { ProcessSpec, RunningProcess } from '../../../../../src/core/ports/processes';
import { logReader } from '../../../../../src/processes/logReader';
import { fakeAgents } from '../../../../helpers/fakeAgents';
import { tempDir } from '../../../../helpers/tmp';
import { engineCases } from '../../../store/engines/engineKit';
import { alive } from '../../../../helpers/processes';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function service(
  engine: LedgerEngine,
  workspace: string,
  pid: number,
  env: Record<string, string>,
  supervisor = new ProcessSupervisor(),
): { children: ChildService; supervisor: ProcessSupervisor } {
  const children = new ChildService({
    engine,
    supervisor,
    logs: logReader,
    workspace,
    childrenDir: path.join(workspace, '.agent-ledger', 'children'),
    env: () => env,
    programs: { allowed: [process.execPath], declared: () => Promise.resolve([]) },
    clock: Date.now,
    owner: { pid, host: os.hostname() },
    maxRunning: 3,
  });
  return { children, supervisor };
}

const echo = `require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => process.stdout.write('got:' + l + '\\n'));`;

test('effective limits: defaults for the enforced ones, a change keeps the rest', () => {
  const base = effectiveLimits({ messages: 2 });
  assert.equal(base.messages, 2);
  assert.ok(base.wallclock_ms > 0 && base.max_output_bytes > 0);
  assert.equal(base.idle_ms, null);
  const changed = effectiveLimits({ wallclock_ms: 500 }, base);
  assert.deepEqual({ ...changed, wallclock_ms: base.wallclock_ms }, base);
  assert.equal(changed.wallclock_ms, 500);
});

for (const engineCase of engineCases) {
  test(
    `children on ${engineCase.name}: create, send, logs, role, limits, list, a stop from another owner, batch rollback`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      const workspace = tempDir();
      const fakes = fakeAgents();
      const env = fakes.env({ steps: [{ hang: true }] }, { PATH: process.env.PATH ?? '' });
      const mine = service(await ledger.open(), workspace, process.pid, env);
      const other = service(await ledger.open(), workspace, process.pid + 100_000, env);
      try {
        const created = await mine.children.create(
          childCreateInput.parse({
            child_id: 'e1',
            command: process.execPath,
            args: ['-e', echo],
            limits: { messages: 1 },
            run_id: 'r1',
          }),
          'op-1',
        );
        assert.equal(created.runtime_status.state, 'running');
        assert.equal(created.run_id, 'r1');
        const sent = await mine.children.send('e1', 'hi', { op_id: 'op-2' });
        assert.equal(sent.messages_sent, 1);
        await assert.rejects(mine.children.send('e1', 'again', { op_id: 'op-3' }), /messages limit is spent/);
        let logs = await mine.children.logs('e1', { fromSeq: 0, limit: 100, waitMs: 10_000 }, 'op-4');
        while (!logs.logs.some((l) => l.message === 'got:hi'))
          logs = await mine.children.logs('e1', { fromSeq: logs.next_seq, limit: 100, waitMs: 10_000 }, 'op-4');
        assert.equal((await other.children.setRole('e1', 'critic', { op_id: 'op-5' })).role, 'critic');
        const limited = await mine.children.setLimits('e1', { idle_ms: 60_000 }, { op_id: 'op-6' });
        assert.equal(limited.limits.idle_ms, 60_000);
        assert.equal(limited.limits.messages, 1);
        assert.deepEqual(
          (await other.children.list({ limit: 10 }, 'op-7')).map((c) => c.child_id),
          ['e1'],
        );
        await assert.rejects(other.children.send('e1', 'x', { op_id: 'op-8' }), /runs under another server process/);
        const stopped = await other.children.kill('e1', 500, { op_id: 'op-9' });
        assert.equal(stopped.runtime_status.state, 'exited');
        assert.equal(stopped.runtime_status.stopped, true);
        assert.equal((await mine.children.status('e1', 'op-10')).runtime_status.state, 'exited');

        // The batch: the third entry cannot start (its folder is missing): refused before any starts, nothing recorded.
        const entries = ['b1', 'b2', 'b3'].map((id, i) =>
          childSpawnCodexInput.parse({ child_id: id, prompt: `p${i}`, ...(i === 2 ? { cwd: 'missing' } : {}) }),
        );
        await assert.rejects(
          createChildBatch(await ledger.open(), mine.children, Date.now, { entries }),
          (err: Error & { data?: Record<string, unknown> }) => {
            assert.deepEqual(err.data?.rollback_child_ids, []);
            return true;
          },
        );
        for (const id of ['b1', 'b2', 'b3']) await assert.rejects(mine.children.status(id, 'op'), /No child/);

        // At most maxRunning (3) children at once, across owners.
        for (const id of ['m1', 'm2', 'm3'])
          await (id === 'm2' ? other : mine).children.create(
            childCreateInput.parse({ child_id: id, command: process.execPath, args: ['-e', echo] }),
            'op',
          );
        await assert.rejects(
          mine.children.create(
            childCreateInput.parse({ child_id: 'm4', command: process.execPath, args: ['-e', echo] }),
            'op',
          ),
          /already run in this workspace/,
        );
      } finally {
        await mine.supervisor.dispose();
        await other.supervisor.dispose();
        await sleep(100);
        await ledger.dispose();
      }
    },
  );
}

/** The real supervisor, with a hook run just before the spawn and one just after it (before the service records the pid). */
class HookedSupervisor extends ProcessSupervisor {
  before: (spec: ProcessSpec) => Promise<void> = async () => undefined;
  after: (started: RunningProcess) => Promise<void> = async () => undefined;
  override async start(spec: ProcessSpec): Promise<RunningProcess> {
    await this.before(spec);
    const started = await super.start(spec);
    await this.after(started);
    return started;
  }
}

for (const engineCase of engineCases) {
  test(
    `children on ${engineCase.name}: never listed running without a pid; stopped while starting, its process does not outlive the stop`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      const workspace = tempDir();
      const env = { PATH: process.env.PATH ?? '' };
      const hooked = new HookedSupervisor();
      const mine = service(await ledger.open(), workspace, process.pid, env, hooked);
      const other = service(await ledger.open(), workspace, process.pid + 100_000, env);
      const seen: { when: string; state: string; pid: number | null }[] = [];
      const look = async (when: string) => {
        for (const c of await other.children.list({ limit: 10 }, 'op-look'))
          seen.push({ when, state: c.runtime_status.state, pid: c.runtime_status.pid });
        const status = (await other.children.status('s1', 'op-look')).runtime_status;
        seen.push({ when, state: status.state, pid: status.pid });
      };
      try {
        hooked.before = () => look('before the spawn');
        hooked.after = () => look('after the spawn, before its pid is recorded');
        const created = await mine.children.create(
          childCreateInput.parse({
            child_id: 's1',
            command: process.execPath,
            args: ['-e', 'setInterval(() => {}, 1000)'],
          }),
          'op-1',
        );
        assert.ok(seen.length >= 4, 'the listing ran in both gaps');
        for (const s of seen) {
          assert.equal(s.state, 'starting', `${s.when}: listed ${s.state} with pid ${s.pid}`);
          assert.equal(s.pid, null);
        }
        assert.equal(created.runtime_status.state, 'running');
        assert.ok(created.runtime_status.pid! > 0);
        assert.equal(childOutput.shape.runtime_status.parse(created.runtime_status).state, 'running');
        assert.deepEqual((await other.children.list({ state: 'starting', limit: 10 }, 'op')).length, 0);
        assert.equal(
          (await other.children.list({ state: 'running', limit: 10 }, 'op'))[0]?.runtime_status.pid,
          created.runtime_status.pid,
        );
        await mine.children.kill('s1', 500, { op_id: 'op-2' });

        // Another server stops the child between its row and its spawn: the spawned process is stopped at once, its end stays recorded.
        hooked.before = async () => {
          const stopped = await other.children.kill('s2', 200, { op_id: 'op-stop' });
          assert.equal(stopped.runtime_status.state, 'exited');
        };
        hooked.after = async () => undefined;
        const late = await mine.children.create(
          childCreateInput.parse({
            child_id: 's2',
            command: process.execPath,
            args: ['-e', 'setInterval(() => {}, 1000)'],
          }),
          'op-3',
        );
        assert.equal(late.runtime_status.state, 'exited');
        assert.equal(late.runtime_status.stopped, true);
        const pid = late.runtime_status.pid!;
        assert.ok(pid > 0, 'the real pid is recorded');
        const deadline = Date.now() + 10_000;
        while (alive(pid) && Date.now() < deadline) await sleep(50);
        assert.equal(alive(pid), false, 'the process started after the stop is gone');
        assert.equal((await mine.children.status('s2', 'op')).runtime_status.state, 'exited');
      } finally {
        await hooked.dispose();
        await other.supervisor.dispose();
        await sleep(100);
        await ledger.dispose();
      }
    },
  );
}

for (const engineCase of engineCases) {
  test(
    `children on ${engineCase.name}: a batch whose third start fails after every check passed stops the two it started`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      const workspace = tempDir();
      const fakes = fakeAgents();
      const hooked = new HookedSupervisor();
      const mine = service(
        await ledger.open(),
        workspace,
        process.pid,
        fakes.env({ steps: [{ hang: true }] }, { PATH: process.env.PATH ?? '' }),
        hooked,
      );
      try {
        hooked.before = async (spec) => {
          if (spec.id === 'r3') throw new Error('the system refused to start it');
        };
        const entries = ['r1', 'r2', 'r3'].map((id, i) =>
          childSpawnCodexInput.parse({ child_id: id, prompt: `p${i}` }),
        );
        await assert.rejects(
          createChildBatch(await ledger.open(), mine.children, Date.now, { entries }),
          (err: Error & { data?: Record<string, unknown> }) => {
            assert.deepEqual(err.data?.rollback_child_ids, ['r2', 'r1']);
            assert.equal((err.data?.failures as { stage: string }[])[0].stage, 'spawn');
            return true;
          },
        );
        for (const id of ['r1', 'r2'])
          assert.equal((await mine.children.status(id, 'op')).runtime_status.stopped, true);
        assert.equal((await mine.children.status('r3', 'op')).runtime_status.state, 'failed');
      } finally {
        await hooked.dispose();
        await sleep(100);
        await ledger.dispose();
      }
    },
  );
}
