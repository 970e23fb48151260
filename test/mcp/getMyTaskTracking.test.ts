/**
 * An agent that logs in by itself (no runner, no start_task) and takes its task with
 * get_my_task: the run is tracked with its exact Git changes, as start_task / complete_task
 * track a task. Real server process, real temp Git repository.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PASSKEY, pmWorld, runningTask } from './pmHelpers';

interface TaskView {
  snapshot: { type: string; id: string } | null;
  endSnapshotId: string | null;
  filesChanged: { added: string[]; modified: string[]; deleted: string[] } | null;
  status: string;
}

test('get_my_task without the runner takes the task’s start snapshot, and report_completed records exactly the files the run changed', async () => {
  const { repo, c } = await pmWorld();
  try {
    fs.writeFileSync(path.join(repo, 'packages/web/dirty-before.js'), 'already here\n');
    const taskId = await runningTask(c, 'Login page', 'coder', 'web');
    assert.equal(
      (await c.call<TaskView>('task_get', { id: taskId })).snapshot,
      null,
      'task_create + assign: no snapshot yet',
    );

    const { session_token } = await c.call<{ session_token: string }>('authenticate', {
      agent_id: 'coder',
      passkey: PASSKEY,
      project_id: 'web',
    });
    const got = await c.call<{ has_task: boolean; task: { task_id: string; working_directory: string } }>(
      'get_my_task',
      { session_token },
    );
    assert.equal(got.task.task_id, taskId);
    const started = await c.call<TaskView>('task_get', { id: taskId });
    assert.equal(started.snapshot?.type, 'git', 'get_my_task took the start snapshot');

    // The agent's work: one new file, one edited; the file that was dirty before is not its change.
    fs.writeFileSync(path.join(got.task.working_directory, 'login.js'), 'login\n');
    fs.appendFileSync(path.join(got.task.working_directory, 'index.js'), 'more\n');
    await c.call('get_my_task', { session_token });
    assert.equal(
      (await c.call<TaskView>('task_get', { id: taskId })).snapshot?.id,
      started.snapshot?.id,
      'a second get_my_task keeps the first snapshot',
    );

    await c.call('report_completed', { session_token, result: 'success', summary: 'login page done' });
    const done = await c.call<TaskView>('task_get', { id: taskId });
    assert.equal(done.status, 'done');
    assert.deepEqual(done.filesChanged?.added, ['packages/web/login.js']);
    assert.deepEqual(done.filesChanged?.modified, ['packages/web/index.js']);
    assert.ok(done.endSnapshotId && done.endSnapshotId !== started.snapshot?.id, 'the end snapshot is recorded');
  } finally {
    await c.close();
  }
});
