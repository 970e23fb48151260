// The task detail says what stops a task or waits for a person, and what a person did about it:
// the same services as `task resume` and the Board's review, read back through the detail's model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServices } from '../../../src/app/services';
import { parseId } from '../../../src/core/ids';
import { recordWaiting } from '../../../src/core/tasks/taskHolds';
import { taskDetailModel } from '../../../src/views/taskDetailModel';
import { tempRepo, writeFiles } from '../../helpers/tmp';

test('a held task shows its hold until resumed, then the runner’s reason; a manual review shows until answered', async () => {
  const repo = tempRepo({ 'src/a.ts': 'a1\n' });
  const services = await createServices({ workspace: repo });
  const folder = { name: 'repo', root: repo };
  try {
    const { workflow_id } = await services.workflows.start({ name: 'Keys' });
    const started = await services.tracking.startTask({
      workflow_id,
      name: 'Rotate keys',
      goal: 'rotate',
      areas: ['src'],
    });
    const id = parseId('task', started.task_id);
    await services.engine.write((tx) =>
      recordWaiting(
        tx,
        id,
        { reason: 'dependencies', detail: 'waits for task-9', blockedBy: ['task-9'] },
        '2026-11-28T10:00:00.000Z',
      ),
    );
    let model = await taskDetailModel(services, folder, id, null);
    assert.equal(model.hold, null);
    assert.deepEqual(model.waiting, {
      reason: 'dependencies',
      detail: 'waits for task-9',
      since: '2026-11-28T10:00:00.000Z',
    });
    assert.equal(model.review, null, 'a running task asks no review');

    await services.holds.hold(id, 'ada');
    model = await taskDetailModel(services, folder, id, null);
    assert.equal(model.hold?.by, 'ada');
    assert.equal(model.waiting, null, 'a hold replaces the runner’s word');

    await services.holds.resume(id, 'bob');
    model = await taskDetailModel(services, folder, id, null);
    assert.equal(model.hold, null);

    writeFiles(repo, { 'src/a.ts': 'a2\n' });
    await services.tracking.completeTask({
      task_id: started.task_id,
      status: 'success',
      outcome: { summary: 'rotated', manual_review_needed: true, manual_review_reason: 'touches keys' },
    });
    model = await taskDetailModel(services, folder, id, null);
    assert.deepEqual(model.review, { manualReview: { reason: 'touches keys' }, issue: null });
    assert.equal(model.waiting, null, 'a finished task waits for nothing');
    assert.equal(model.reviewed, null, 'nobody answered yet');

    const record = await services.reviews.review({ taskId: id, verdict: 'approved', note: 'checked', by: 'ada' });
    assert.equal(record.reviewedBy, 'ada');
    model = await taskDetailModel(services, folder, id, null);
    assert.equal(model.review, null, 'answered: nothing waits for a person');
    assert.deepEqual(
      model.reviewed && [model.reviewed.verdict, model.reviewed.by, model.reviewed.note],
      ['approved', 'ada', 'checked'],
      'who answered, for whoever opens the task later',
    );
  } finally {
    await services.dispose();
  }
});
