import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import { PASSKEY, pmWorld, runningTask } from './pmHelpers';

/** The pm family's project, agent, task, context, handoff, execution-log and deprecated tools, through the real SDK client. */

interface Handoff {
  handoff_id: string;
  task_id: string;
  from_agent_id: string;
  to_agent_id: string | null;
  summary: string;
  context: string | null;
  recommendations: string | null;
  status: 'pending' | 'accepted';
  created_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
}

test('projects, agents and tasks: the ledger’s own tasks and agent definitions, with coded refusals', async () => {
  const { repo, c } = await pmWorld();
  try {
    const projects = await c.call<{ success: true; projects: Record<string, unknown>[] }>('list_projects');
    assert.deepEqual(
      projects.projects.map((p) => [p.project_id, p.name, p.working_directory, p.status, p.agents]),
      [
        ['prj-1', 'web', path.join(repo, 'packages/web'), 'active', ['coder', 'reviewer']],
        ['prj-2', 'api', path.join(repo, 'packages/api'), 'active', ['coder']],
      ],
    );
    assert.deepEqual(Object.keys(projects.projects[0]).sort(), [
      'agents',
      'created_at',
      'description',
      'name',
      'project_id',
      'status',
      'updated_at',
      'working_directory',
    ]);

    const agents = await c.call<{
      agents: { agent_id: string; ai_type: string; projects: string[]; has_passkey: boolean }[];
    }>('list_agents');
    const coder = agents.agents.find((a) => a.agent_id === 'coder');
    assert.deepEqual([coder?.ai_type, coder?.projects, coder?.has_passkey], ['claude', ['prj-1', 'prj-2'], true]);
    const profile = await c.call<{ agent: { agent_id: string; system_prompt: string; projects: string[] } }>(
      'get_agent_profile',
      { agent_id: 'reviewer' },
    );
    assert.deepEqual(profile.agent.projects, ['prj-1']);
    assert.ok(profile.agent.system_prompt.length > 0);
    assert.equal((await c.fail('get_agent_profile', { agent_id: 'ghost' })).reason, 'AgentNotFound');

    const t1 = await runningTask(c, 'Build the page', 'coder', 'web');
    const plain = await c.call<{ id: number }>('task_create', { title: 'Unplaced' });
    const onlyApi = await c.call<{ project_id: string | null }>('assign_task', {
      task_id: plain.id,
      assignee_id: 'reviewer',
    });
    assert.equal(onlyApi.project_id, 'prj-1', 'the agent’s only project is chosen');
    const wrong = await c.fail('assign_task', { task_id: plain.id, assignee_id: 'reviewer', project_id: 'api' });
    assert.equal(wrong.reason, 'ValidationError');
    assert.match(wrong.message, /not assigned to project prj-2/);
    assert.equal((await c.fail('assign_task', { task_id: 999, assignee_id: 'coder' })).reason, 'TaskNotFound');
    assert.equal((await c.fail('assign_task', { task_id: plain.id, assignee_id: 'ghost' })).reason, 'AgentNotFound');

    const listed = await c.call<{
      tasks: { task_id: string; status: string; assignee_id: string; project_id: string }[];
    }>('list_tasks', { project_id: 'web' });
    assert.deepEqual(
      listed.tasks.map((t) => [t.task_id, t.status, t.assignee_id, t.project_id]),
      [
        [t1, 'in_progress', 'coder', 'prj-1'],
        [`task-${plain.id}`, 'open', 'reviewer', 'prj-1'],
      ],
    );
    assert.deepEqual(
      (await c.call<{ tasks: unknown[] }>('list_tasks', { project_id: 'prj-1', status: 'open' })).tasks.length,
      1,
    );
    assert.deepEqual(
      (await c.call<{ tasks: unknown[] }>('list_tasks', { project_id: 'prj-1', assignee_id: 'coder' })).tasks.length,
      1,
    );
    assert.deepEqual((await c.call<{ tasks: unknown[] }>('list_tasks', { project_id: 'api' })).tasks, []);
    assert.equal((await c.fail('list_tasks', { project_id: 'nope' })).reason, 'NotFound');
    assert.equal((await c.fail('list_tasks', { project_id: 'prj-1', status: 'blocked' })).reason, 'ValidationError');

    // The same task as task_get's.
    const viaTasks = await c.call<{ id: number; status: string; assigneeName: string; assigneeType: string }>(
      'task_get',
      { id: t1 },
    );
    assert.deepEqual([viaTasks.status, viaTasks.assigneeName, viaTasks.assigneeType], ['in_progress', 'coder', 'ai']);
    const got = await c.call<{ task: { task_id: string; title: string; subtasks: unknown[]; project_id: string } }>(
      'get_task',
      { task_id: viaTasks.id },
    );
    assert.deepEqual(
      [got.task.task_id, got.task.title, got.task.subtasks, got.task.project_id],
      [t1, 'Build the page', [], 'prj-1'],
    );

    const moved = await c.call('update_task_status', { task_id: t1, status: 'done' });
    assert.deepEqual(moved, { success: true, task_id: t1, previous_status: 'in_progress', status: 'done' });
    assert.equal((await c.call<{ status: string }>('task_get', { id: t1 })).status, 'done');
    assert.equal((await c.fail('update_task_status', { task_id: t1, status: 'finished' })).reason, 'ValidationError');

    const project = await c.call<{ project: { task_counts: Record<string, number>; agents: string[] } }>(
      'get_project',
      { project_id: 'prj-1' },
    );
    assert.deepEqual(project.project.task_counts, { done: 1, open: 1 });
    assert.equal((await c.fail('get_project', { project_id: 'prj-7' })).reason, 'NotFound');
  } finally {
    await c.close();
  }
});

test('contexts and handoffs: save_context history, create_handoff, a bounded wait in get_pending_handoffs, accept_handoff by its recipient only', async () => {
  const { repo, c } = await pmWorld();
  const other = await connect(repo, ['--enable-pm']);
  try {
    const task = await runningTask(c, 'Auth', 'coder', 'web');
    assert.deepEqual(await c.call('get_task_context', { task_id: task }), {
      success: true,
      task_id: task,
      context: null,
    });
    const first = await c.call<{ context: { context_id: number; agent_id: string | null } }>('save_context', {
      task_id: task,
      progress: 'half',
      findings: 'uses JWT',
    });
    assert.equal(first.context.agent_id, null);
    await c.call('save_context', {
      task_id: task,
      progress: 'most',
      blockers: 'none',
      next_steps: 'tests',
      agent_id: 'coder',
    });
    const ctx = await c.call<{ context: { progress: string }; history: { progress: string }[] }>('get_task_context', {
      task_id: task,
      include_history: true,
    });
    assert.equal(ctx.context.progress, 'most');
    assert.deepEqual(
      ctx.history.map((h) => h.progress),
      ['half', 'most'],
    );
    assert.equal((await c.fail('save_context', { task_id: 404, progress: 'x' })).reason, 'TaskNotFound');

    assert.deepEqual(await c.call('get_pending_handoffs', { agent_id: 'reviewer' }), { success: true, handoffs: [] });
    const t0 = Date.now();
    const waiting = c.call<{ handoffs: Handoff[] }>('get_pending_handoffs', { agent_id: 'reviewer', wait_ms: 30_000 });
    await new Promise((r) => setTimeout(r, 300));
    const created = await other.call<{ handoff: Handoff }>('create_handoff', {
      task_id: task,
      from_agent_id: 'coder',
      to_agent_id: 'reviewer',
      summary: 'Login done, needs review',
      recommendations: 'check the token expiry',
    });
    const woke = await waiting;
    assert.ok(Date.now() - t0 < 15_000, 'returned when the handoff was created');
    assert.deepEqual(woke.handoffs, [created.handoff]);
    assert.deepEqual(Object.keys(created.handoff).sort(), [
      'accepted_at',
      'accepted_by',
      'context',
      'created_at',
      'from_agent_id',
      'handoff_id',
      'recommendations',
      'status',
      'summary',
      'task_id',
      'to_agent_id',
    ]);
    assert.equal(created.handoff.status, 'pending');
    assert.deepEqual(
      await c.call('get_pending_handoffs', { agent_id: 'tester' }),
      { success: true, handoffs: [] },
      'addressed to someone else',
    );

    // The recipient sees it with its task.
    await c.call('assign_task', { task_id: task, assignee_id: 'reviewer', project_id: 'web' });
    const auth = await c.call<{ session_token: string }>('authenticate', {
      agent_id: 'reviewer',
      passkey: PASSKEY,
      project_id: 'web',
    });
    const mine = await c.call<{ task: { handoff: Handoff; context: { progress: string } } }>('get_my_task', {
      session_token: auth.session_token,
    });
    assert.equal(mine.task.handoff.handoff_id, created.handoff.handoff_id);
    assert.equal(mine.task.context.progress, 'most');

    const notYours = await c.fail('accept_handoff', { handoff_id: created.handoff.handoff_id, agent_id: 'coder' });
    assert.equal(notYours.reason, 'ValidationError');
    const accepted = await c.call<{ handoff: Handoff }>('accept_handoff', {
      handoff_id: created.handoff.handoff_id,
      agent_id: 'reviewer',
    });
    assert.deepEqual([accepted.handoff.status, accepted.handoff.accepted_by], ['accepted', 'reviewer']);
    assert.equal(
      (await c.fail('accept_handoff', { handoff_id: created.handoff.handoff_id, agent_id: 'reviewer' })).reason,
      'InvalidStatus',
    );
    assert.equal(
      (await c.fail('accept_handoff', { handoff_id: 'handoff-99', agent_id: 'reviewer' })).reason,
      'NotFound',
    );
    assert.equal(
      (await c.fail('accept_handoff', { handoff_id: 'nonsense', agent_id: 'reviewer' })).reason,
      'ValidationError',
    );
    assert.deepEqual((await c.call<{ handoffs: Handoff[] }>('get_pending_handoffs', {})).handoffs, []);
    assert.equal(
      (await c.fail('create_handoff', { task_id: task, from_agent_id: 'ghost', summary: 's' })).reason,
      'AgentNotFound',
    );
    assert.equal(
      (await c.fail('create_handoff', { task_id: task, from_agent_id: 'coder', summary: '' })).reason,
      'ValidationError',
    );
  } finally {
    await other.close();
    await c.close();
  }
});

test('the deprecated tools still work and say so; execution logs list and read back', async () => {
  const { repo, c } = await pmWorld();
  try {
    const task = await runningTask(c, 'Old style', 'coder', 'web');
    const auth = await c.call<{ session_token: string }>('authenticate', {
      agent_id: 'coder',
      passkey: PASSKEY,
      project_id: 'web',
    });
    const pending = await c.call<{ success: true; deprecated: string; tasks: Record<string, unknown>[] }>(
      'get_pending_tasks',
      { session_token: auth.session_token },
    );
    assert.match(pending.deprecated, /deprecated: use get_my_task/);
    assert.deepEqual(Object.keys(pending.tasks[0]).sort(), [
      'assignedAt',
      'description',
      'priority',
      'projectId',
      'taskId',
      'title',
      'workingDirectory',
    ]);
    assert.equal(pending.tasks[0].taskId, task);

    const start = await c.call<{ deprecated: string; execution_id: string; started_at: string }>(
      'report_execution_start',
      { session_token: auth.session_token, task_id: task },
    );
    assert.match(start.deprecated, /deprecated/);
    assert.match(start.execution_id, /^exec-\d+$/);
    const end = await c.call<{ deprecated: string; execution_id: string; completed_at: string; status: string }>(
      'report_execution_complete',
      {
        session_token: auth.session_token,
        execution_id: start.execution_id,
        exit_code: 3,
        duration_seconds: 12.5,
        log_file_path: '/tmp/run.log',
      },
    );
    assert.deepEqual([end.execution_id, end.status], [start.execution_id, 'failed']);
    assert.match(end.deprecated, /use report_completed/);

    const log = await c.call<{ log: Record<string, unknown> }>('get_execution_log', {
      execution_id: start.execution_id,
    });
    assert.deepEqual(
      [log.log.exitCode, log.log.durationSeconds, log.log.logFilePath, log.log.status, log.log.taskId, log.log.agentId],
      [3, 12.5, '/tmp/run.log', 'failed', task, 'coder'],
    );
    const list = await c.call<{ logs: Record<string, unknown>[] }>('list_execution_logs', { limit: 5 });
    assert.equal(list.logs[0].executionId, start.execution_id);
    assert.equal((await c.fail('get_execution_log', { execution_id: 'exec-999' })).reason, 'NotFound');
    assert.equal(
      (await c.fail('report_execution_start', { session_token: auth.session_token, task_id: 999 })).reason,
      'TaskNotFound',
    );
    assert.equal((await c.fail('get_pending_tasks', { session_token: 'nope' })).reason, 'Unauthorized');

    // Deprecated tools answer (above) but are listed only with --list-deprecated.
    const deprecatedNames = ['get_pending_tasks', 'report_execution_start', 'report_execution_complete'];
    assert.equal((await c.client.listTools()).tools.filter((t) => deprecatedNames.includes(t.name)).length, 0);
    const listing = await connect(repo, ['--enable-pm', '--list-deprecated']);
    const tools = (await listing.client.listTools()).tools.filter((t) => deprecatedNames.includes(t.name));
    await listing.close();
    assert.equal(tools.length, 3);
    for (const t of tools) assert.match(t.description ?? '', /^Deprecated/);
  } finally {
    await c.close();
  }
});

test('every pm tool answers with its whole result in structuredContent', async () => {
  const { repo, c } = await pmWorld();
  try {
    const r = await c.client.callTool({ name: 'list_active_projects_with_agents', arguments: {} });
    const text = (r.content as { text: string }[])[0].text;
    assert.deepEqual(r.structuredContent, JSON.parse(text));
    // health_check and should_start are the runner's: listed with --list-runner-tools.
    const runner = await connect(repo, ['--enable-pm', '--list-runner-tools']);
    const { tools } = await runner.client.listTools();
    await runner.close();
    const pm = tools.filter(
      (t) =>
        t.outputSchema &&
        ['health_check', 'should_start', 'authenticate', 'get_my_task', 'report_completed', 'create_handoff'].includes(
          t.name,
        ),
    );
    assert.equal(pm.length, 6, 'each declares its output schema');
  } finally {
    await c.close();
  }
});
