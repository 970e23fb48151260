// A person's hold on a task and the runner's reasons kept on it: what every face reads to say why
// an agent is idle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServices } from '../../../../src/app/services';
import { recordWaiting } from '../../../../src/core/tasks/taskHolds';
import { tempDir } from '../../../helpers/tmp';

test("each agent's row gets the reason its oldest queued task does not run; a reason said twice is written once", async () => {
  const services = await createServices({ workspace: tempDir() });
  try {
    const create = async (title: string, assignee: string) => {
      const { id } = await services.tasks.create({ title, assignee } as never);
      await services.engine.write((tx) => tx.run("UPDATE tasks SET status = 'in_progress' WHERE id = ?", [id]));
      return id;
    };
    const design = await create('Design', 'architect');
    const build = await create('Build', 'coder');
    const later = await create('Later', 'coder');
    const docs = await create('Docs', 'writer');
    await services.holds.hold(design, 'ada');
    const waiting = {
      reason: 'dependencies',
      detail: `task-${build} waits for task-${design}`,
      blockedBy: [`task-${design}`],
    };
    const events = async () => (await services.events.since(0, 1000)).filter((e) => e.kind === 'task.waiting').length;
    assert.equal(
      await services.engine.write((tx) => recordWaiting(tx, build, waiting, '2026-11-28T10:00:00.000Z')),
      true,
    );
    assert.equal(
      await services.engine.write((tx) => recordWaiting(tx, build, waiting, '2026-11-28T10:00:05.000Z')),
      false,
    );
    await services.engine.write((tx) =>
      recordWaiting(tx, later, { reason: 'conflict', detail: 'overlaps', blockedBy: [] }, '2026-11-28T10:00:06.000Z'),
    );
    assert.equal(await events(), 2, 'the same reason again writes nothing');

    const idle = await services.holds.idleReasons();
    assert.deepEqual(idle.get('architect'), {
      taskId: `task-${design}`,
      reason: 'held',
      detail: 'stopped by ada: held until resumed',
    });
    assert.deepEqual(idle.get('coder'), { taskId: `task-${build}`, reason: 'dependencies', detail: waiting.detail });
    assert.equal(idle.has('writer'), false, `task-${docs} waits for nothing`);
    assert.equal((await services.tasks.answer(build)).waiting?.since, '2026-11-28T10:00:00.000Z');

    // Launched: the reason goes.
    await services.engine.write((tx) => recordWaiting(tx, build, null, '2026-11-28T10:01:00.000Z'));
    assert.equal((await services.tasks.answer(build)).waiting, null);
  } finally {
    await services.dispose();
  }
});
