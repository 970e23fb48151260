import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { tempRepo, writeFiles } from '../helpers/tmp';

interface TaskJson {
  id: number;
  title: string;
  description: string | null;
  status: string;
  priority: string;
  type: string;
  labels: string[];
  assigneeName: string | null;
  assigneeType: string | null;
  selectedSessionId: number | null;
  workflowId: string | null;
  snapshot: { id: string } | null;
  createdAt: string;
  updatedAt: string;
}

interface TaskList {
  tasks: {
    id: number;
    title: string;
    status: string;
    priority: string;
    type: string;
    labels: string[];
    assignee: string | null;
  }[];
  total: number;
  nextOffset: number | null;
}

describe('task tools (seed 002) over the one tasks table', () => {
  let repo: string;
  let c: LedgerClient;
  before(async () => {
    repo = tempRepo({ 'src/auth.ts': 'v1\n' });
    c = await connect(repo);
  });
  after(() => c.close());

  test('task_create → task_get → task_update, with the seed’s numeric ids and fields', async () => {
    const created = await c.call<TaskJson>('task_create', {
      title: '認証機能実装',
      description: 'JWT認証を実装する',
      priority: 'high',
      type: 'feature',
      assignee: 'coder',
      assigneeType: 'ai',
      labels: 'auth, backend,,auth',
    });
    assert.equal(typeof created.id, 'number');
    assert.equal(created.status, 'open');
    assert.deepEqual(created.labels, ['auth', 'backend']);
    assert.equal(created.assigneeName, 'coder');
    assert.equal(created.selectedSessionId, null);

    const got = await c.call<TaskJson>('task_get', { id: created.id });
    assert.equal(got.title, '認証機能実装');
    assert.equal(got.description, 'JWT認証を実装する');
    for (const shape of [String(created.id), `#${created.id}`, `task-${created.id}`]) {
      assert.equal((await c.call<TaskJson>('task_get', { id: shape })).id, created.id, `id shape ${shape}`);
    }

    const updated = await c.call<TaskJson>('task_update', {
      id: created.id,
      title: 'JWT auth',
      priority: 'critical',
      labels: 'security',
      assignee: '',
    });
    assert.equal(updated.title, 'JWT auth');
    assert.equal(updated.priority, 'critical');
    assert.deepEqual(updated.labels, ['security']);
    assert.equal(updated.assigneeName, null);
    assert.equal(updated.description, 'JWT認証を実装する', 'fields not given stay as they were');
    assert.ok(updated.updatedAt >= created.updatedAt);

    const resource = await c.client.readResource({ uri: `task://${created.id}` });
    const view = JSON.parse((resource.contents[0] as { text: string }).text) as TaskJson;
    for (const field of [
      'id',
      'title',
      'description',
      'status',
      'priority',
      'type',
      'assigneeType',
      'assigneeName',
      'selectedSessionId',
      'createdAt',
      'updatedAt',
    ]) {
      assert.ok(field in view, `task:// has seed 002's ${field}`);
    }
    assert.equal(view.title, 'JWT auth');
  });

  test('task_create with workflowId adds a planned task to a workflow: open, listed with it; an unknown workflow is refused and writes nothing', async () => {
    const wf = await c.call<{ workflow_id: string }>('start_workflow', {
      name: 'Checkout',
      plan: [{ step: 'cart', goal: 'a cart' }],
    });
    const planned = await c.call<TaskJson & { workflowId: string | null }>('task_create', {
      title: 'Write the payment page',
      workflowId: wf.workflow_id,
    });
    assert.equal(planned.status, 'open', 'planned, not started');
    assert.equal(planned.workflowId, wf.workflow_id);
    const listed = await c.call<{ tasks: { id: number }[] }>('task_list', { workflowId: wf.workflow_id });
    assert.deepEqual(
      listed.tasks.map((t) => t.id),
      [planned.id],
    );
    const before = await c.call<{ total: number }>('task_list', {});
    const refused = await c.fail('task_create', { title: 'Lost', workflowId: 'wf-999' });
    assert.equal(refused.reason, 'NotFound');
    assert.equal((await c.call<{ total: number }>('task_list', {})).total, before.total, 'nothing written');
  });

  test('task_list filters by status and assignee, pages with offset/nextOffset, newest first', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await c.call<TaskJson>('task_create', { title: `page ${i}`, assignee: i % 2 ? 'alice' : 'bob' })).id);
    const alice = await c.call<TaskList>('task_list', { assignee: 'alice' });
    assert.deepEqual(
      alice.tasks.map((t) => t.id),
      [ids[3], ids[1]],
    );
    const first = await c.call<TaskList>('task_list', { limit: 2 });
    assert.equal(first.tasks.length, 2);
    assert.deepEqual(
      first.tasks.map((t) => t.id),
      [ids[4], ids[3]],
    );
    assert.equal(first.nextOffset, 2);
    const second = await c.call<TaskList>('task_list', { limit: 2, offset: first.nextOffset! });
    assert.deepEqual(
      second.tasks.map((t) => t.id),
      [ids[2], ids[1]],
    );
    const all = await c.call<TaskList>('task_list', { limit: 500 });
    assert.equal(all.nextOffset, null);
    assert.equal(all.total, all.tasks.length);
    assert.deepEqual(
      Object.keys(all.tasks[0]).sort(),
      ['assignee', 'assigneeType', 'id', 'labels', 'priority', 'status', 'title', 'type'],
      'compact rows',
    );
    const open = await c.call<TaskList>('task_list', { status: 'open', limit: 500 });
    assert.ok(open.tasks.every((t) => t.status === 'open'));
  });

  test('tracked tasks (start_task) appear in task_list; a created task starts with start_task task_id', async () => {
    const wf = await c.call<{ workflow_id: string }>('start_workflow', { name: 'one domain' });
    const tracked = await c.call<{ task_id: string }>('start_task', {
      workflow_id: wf.workflow_id,
      name: 'tracked',
      goal: 'g',
    });
    const trackedId = Number(tracked.task_id.replace('task-', ''));
    const inProgress = await c.call<TaskList>('task_list', { status: 'in_progress', limit: 500 });
    assert.ok(inProgress.tasks.some((t) => t.id === trackedId && t.title === 'tracked'));
    const byWorkflow = await c.call<TaskList>('task_list', { workflowId: wf.workflow_id });
    assert.deepEqual(
      byWorkflow.tasks.map((t) => t.id),
      [trackedId],
    );

    const planned = await c.call<TaskJson>('task_create', { title: 'planned', priority: 'low' });
    const started = await c.call<{ task_id: string; snapshot_id: string; workflow_id: string }>('start_task', {
      task_id: planned.id,
      workflow_id: wf.workflow_id,
      name: 'planned work',
      goal: 'do it',
      areas: ['src'],
    });
    assert.equal(started.task_id, `task-${planned.id}`);
    const now = await c.call<TaskJson>('task_get', { id: planned.id });
    assert.equal(now.status, 'in_progress');
    assert.equal(now.snapshot?.id, started.snapshot_id);
    assert.equal(now.priority, 'low', 'the task keeps its seed 002 fields');
    assert.equal(now.workflowId, wf.workflow_id);
    writeFiles(repo, { 'src/auth.ts': 'v2\n' });
    const done = await c.call<{ files_changed: { modified: string[] } }>('complete_task', {
      task_id: started.task_id,
      status: 'success',
      outcome: { summary: 'done' },
    });
    assert.deepEqual(done.files_changed.modified, ['src/auth.ts']);
    const again = await c.fail('start_task', {
      task_id: planned.id,
      workflow_id: wf.workflow_id,
      name: 'x',
      goal: 'y',
    });
    assert.equal(again.code, -32004);
  });

  test('cancel and reopen by status; done and in-progress tasks refuse', async () => {
    const t = await c.call<TaskJson>('task_create', { title: 'maybe' });
    assert.equal((await c.call<TaskJson>('task_update', { id: t.id, status: 'cancelled' })).status, 'cancelled');
    assert.equal((await c.fail('session_start', { taskId: t.id, agent: 'coder' })).reason, 'InvalidStatus');
    assert.equal((await c.call<TaskJson>('task_update', { id: t.id, status: 'open' })).status, 'open');
    await c.call('session_start', { taskId: t.id, agent: 'coder' });
    const refused = await c.fail('task_update', { id: t.id, status: 'open' });
    assert.equal(refused.code, -32004);
    assert.match(refused.message, /in progress/);
  });

  test('refusals carry seed 002’s codes and say what is accepted', async () => {
    const missing = await c.fail('task_get', { id: 99999 });
    assert.deepEqual([missing.code, missing.reason], [-32001, 'TaskNotFound']);
    assert.deepEqual(missing.data, { taskId: 99999 });
    assert.equal((await c.fail('task_update', { id: 99999, title: 'x' })).code, -32001);
    const badPriority = await c.fail('task_create', { title: 'x', priority: 'urgent' });
    assert.equal(badPriority.code, -32007);
    assert.equal(
      badPriority.message,
      'invalid arguments for task_create: priority: expected one of "low" | "medium" | "high" | "critical" (got "urgent")',
    );
    assert.match((await c.fail('task_create', { title: '   ' })).message, /title: must not be empty/);
    assert.match((await c.fail('task_get', { id: true })).message, /id: expected number or string \(got true\)/);
    assert.match((await c.fail('task_get', { id: 'wf-3' })).message, /"wf-3" is not a task id/);
    assert.match((await c.fail('task_update', { id: 1 })).message, /nothing to update/);
    assert.match((await c.fail('task_list', { limit: 0 })).message, /limit: must be ≥ 1/);
    assert.match(
      (
        await c.fail('task_create', {
          title: 'x',
          labels: Array(60)
            .fill('l')
            .map((l, i) => l + i)
            .join(','),
        })
      ).message,
      /too many labels/,
    );
  });
});
