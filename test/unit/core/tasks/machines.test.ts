import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServices } from '../../../../src/app/services';
import { LedgerError } from '../../../../src/core/errors';
import { tempRepo, writeFiles } from '../../../helpers/tmp';

/** Runs `fn` as if this process were on `machine` (AGENT_LEDGER_MACHINE), then restores the environment. */
async function onMachine<T>(machine: string, fn: () => Promise<T>): Promise<T> {
  const before = { machine: process.env.AGENT_LEDGER_MACHINE, user: process.env.AGENT_LEDGER_OS_USER };
  process.env.AGENT_LEDGER_MACHINE = machine;
  process.env.AGENT_LEDGER_OS_USER = `dev-of-${machine}`;
  try {
    return await fn();
  } finally {
    for (const [name, value] of [
      ['AGENT_LEDGER_MACHINE', before.machine],
      ['AGENT_LEDGER_OS_USER', before.user],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

test('tasks, sessions, decisions and events record their machine; a rewind on another machine names where the snapshot lives', async () => {
  const repo = tempRepo({ 'src/a.ts': 'a1\n' });
  const services = await createServices({ workspace: repo });
  try {
    const taskId = await onMachine('laptop-a', async () => {
      const { workflow_id } = await services.workflows.start({ name: 'w' });
      const { task_id } = await services.tracking.startTask({ workflow_id, name: 'Edit a', goal: 'g', areas: ['src'] });
      await services.tracking.logDecision({
        task_id,
        category: 'architecture',
        question: 'q?',
        chosen: 'c',
        reasoning: 'r',
      });
      await services.sessions.start({ taskId: task_id, agent: 'coder', allowConcurrent: false });
      writeFiles(repo, { 'src/a.ts': 'a2\n' });
      await services.tracking.completeTask({ task_id, status: 'success', outcome: { summary: 'done' } });
      return task_id;
    });
    const task = (await services.tasks.get(taskId)) as Record<string, unknown>;
    assert.equal(task.machineId, 'laptop-a');
    assert.equal(task.osUser, 'dev-of-laptop-a');
    const rows = await services.engine.read(async (db) => ({
      decision: await db.get<{ machine_id: string; os_user: string }>('SELECT machine_id, os_user FROM decisions'),
      session: await db.get<{ machine_id: string; os_user: string }>('SELECT machine_id, os_user FROM sessions'),
      events: await db.all<{ machine_id: string }>('SELECT DISTINCT machine_id FROM events'),
    }));
    assert.deepEqual(rows.decision, { machine_id: 'laptop-a', os_user: 'dev-of-laptop-a' });
    assert.deepEqual(rows.session, { machine_id: 'laptop-a', os_user: 'dev-of-laptop-a' });
    assert.deepEqual(rows.events, [{ machine_id: 'laptop-a' }]);

    await onMachine('desktop-b', async () => {
      await assert.rejects(services.rewind.plan(taskId), (e: unknown) => {
        assert.ok(LedgerError.is(e, 'InvalidStatus'), String(e));
        assert.equal(e.data?.reason, 'snapshotOnAnotherMachine');
        assert.equal(e.data?.machineId, 'laptop-a');
        assert.match(e.message, /started on the machine "laptop-a".*not on "desktop-b"/);
        return true;
      });
    });
    // On its own machine the rewind is offered as before.
    const plan = await onMachine('laptop-a', () => services.rewind.plan(taskId));
    assert.ok(plan.paths.includes('src/a.ts'), plan.paths.join(', '));
  } finally {
    await services.dispose();
  }
});
