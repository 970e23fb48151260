import { test } from 'node:test';
import { testStore } from '../helpers/testLedger';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import { PASSKEY, pmWorld, runningTask } from './pmHelpers';

/** The runner's and agent instances' API of the pm family, through the real SDK client against dist/cli.js. */

interface Auth {
  success: true;
  session_token: string;
  expires_in: number;
  agent_name: string;
  project_name: string;
  system_prompt: string;
  instruction: string;
}

interface MyTask {
  success: true;
  has_task: boolean;
  task?: {
    task_id: string;
    title: string;
    description: string | null;
    working_directory: string;
    context: unknown;
    handoff: unknown;
  };
  instruction: string;
}

test('runner API: health_check, list_active_projects_with_agents and should_start’s four rules, per (agent, project)', async () => {
  const { repo, c } = await pmWorld();
  try {
    const health = await c.call<Record<string, unknown>>('health_check');
    assert.deepEqual(Object.keys(health).sort(), ['status', 'store', 'timestamp', 'version']);
    assert.equal(health.status, 'ok');
    assert.equal(health.store, testStore, 'the store this suite runs on');
    assert.ok(!Number.isNaN(Date.parse(String(health.timestamp))));

    const active = await c.call<{
      success: true;
      projects: { project_id: string; project_name: string; working_directory: string; agents: string[] }[];
    }>('list_active_projects_with_agents');
    assert.deepEqual(active, {
      success: true,
      projects: [
        {
          project_id: 'prj-1',
          project_name: 'web',
          working_directory: path.join(repo, 'packages/web'),
          agents: ['coder', 'reviewer'],
        },
        {
          project_id: 'prj-2',
          project_name: 'api',
          working_directory: path.join(repo, 'packages/api'),
          agents: ['coder'],
        },
      ],
    });

    // Rule 1: an agent or a project that does not exist.
    assert.deepEqual(await c.call('should_start', { agent_id: 'nobody', project_id: 'prj-1' }), {
      should_start: false,
    });
    assert.deepEqual(await c.call('should_start', { agent_id: 'coder', project_id: 'prj-99' }), {
      should_start: false,
    });
    assert.deepEqual(await c.call('should_start', { agent_id: 'coder', project_id: 'no-such-project' }), {
      should_start: false,
    });
    // Rule 4: nothing in progress for the agent in the project.
    assert.deepEqual(await c.call('should_start', { agent_id: 'coder', project_id: 'prj-1' }), { should_start: false });

    // Rule 3: an in_progress task assigned to the agent in the project (made with task_create: one domain).
    await runningTask(c, 'Web login page', 'coder', 'web');
    assert.deepEqual(await c.call('should_start', { agent_id: 'coder', project_id: 'prj-1' }), {
      should_start: true,
      ai_type: 'claude',
    });
    assert.deepEqual(
      await c.call('should_start', { agent_id: 'coder', project_id: 'web' }),
      { should_start: true, ai_type: 'claude' },
      'a project is named by id or name',
    );
    assert.deepEqual(
      await c.call('should_start', { agent_id: 'coder', project_id: 'prj-2' }),
      { should_start: false },
      'the task is in the other project',
    );
    assert.deepEqual(
      await c.call('should_start', { agent_id: 'reviewer', project_id: 'prj-1' }),
      { should_start: false },
      'the task is the other agent’s',
    );

    // Rule 2: a running instance of this (agent, project) — but not of (agent, other project).
    const auth = await c.call<Auth>('authenticate', { agent_id: 'coder', passkey: PASSKEY, project_id: 'prj-1' });
    assert.deepEqual(await c.call('should_start', { agent_id: 'coder', project_id: 'prj-1' }), { should_start: false });
    await runningTask(c, 'API endpoint', 'coder', 'api');
    assert.deepEqual(await c.call('should_start', { agent_id: 'coder', project_id: 'prj-2' }), {
      should_start: true,
      ai_type: 'claude',
    });

    // The same agent runs in the second project at once.
    const other = await c.call<Auth>('authenticate', { agent_id: 'coder', passkey: PASSKEY, project_id: 'api' });
    assert.notEqual(other.session_token, auth.session_token);
    assert.deepEqual(await c.call('should_start', { agent_id: 'coder', project_id: 'prj-2' }), { should_start: false });

    // report_completed turns the running flag off; the task is done, so rule 4 answers now.
    await c.call('get_my_task', { session_token: auth.session_token });
    await c.call('report_completed', { session_token: auth.session_token, result: 'success' });
    assert.deepEqual(await c.call('should_start', { agent_id: 'coder', project_id: 'prj-1' }), { should_start: false });

    const bad = await c.fail('should_start', { agent_id: '', project_id: 'prj-1' });
    assert.equal(bad.reason, 'ValidationError');
  } finally {
    await c.close();
  }
});

test('authenticate: a token, the system prompt and the instruction; refusals never say whether the agent or the passkey was wrong; no double launch', async () => {
  const { c } = await pmWorld();
  try {
    const wrongKey = await c.fail('authenticate', {
      agent_id: 'coder',
      passkey: 'not the passkey',
      project_id: 'prj-1',
    });
    const noAgent = await c.fail('authenticate', { agent_id: 'ghost', passkey: PASSKEY, project_id: 'prj-1' });
    const noKeyYet = await c.fail('authenticate', { agent_id: 'tester', passkey: PASSKEY, project_id: 'prj-1' });
    assert.deepEqual(wrongKey, {
      code: -32011,
      reason: 'Unauthorized',
      message: 'Invalid agent_id or passkey',
      data: { error: 'Invalid agent_id or passkey' },
    });
    assert.deepEqual(noAgent, wrongKey, 'an unknown agent is refused exactly like a wrong passkey');
    assert.deepEqual(noKeyYet, wrongKey, 'an agent without a passkey is refused exactly like a wrong passkey');
    assert.equal(
      (await c.fail('authenticate', { agent_id: 'coder', passkey: PASSKEY, project_id: 'prj-42' })).reason,
      'NotFound',
    );
    const notAssigned = await c.fail('authenticate', { agent_id: 'reviewer', passkey: PASSKEY, project_id: 'api' });
    assert.equal(notAssigned.reason, 'Unauthorized');

    const auth = await c.call<Auth>('authenticate', { agent_id: 'coder', passkey: PASSKEY, project_id: 'prj-1' });
    assert.deepEqual(Object.keys(auth).sort(), [
      'agent_name',
      'expires_in',
      'instruction',
      'project_name',
      'session_token',
      'success',
      'system_prompt',
    ]);
    assert.equal(auth.success, true);
    assert.equal(auth.expires_in, 3600);
    assert.equal(auth.agent_name, 'coder');
    assert.equal(auth.project_name, 'web');
    assert.ok(auth.system_prompt.length > 20, 'the role prompt of the agent definition');
    assert.match(auth.instruction, /get_my_task/);
    assert.ok(auth.session_token.length >= 32);

    const twice = await c.fail('authenticate', { agent_id: 'coder', passkey: PASSKEY, project_id: 'prj-1' });
    assert.equal(twice.reason, 'SessionAlreadyRunning');
    assert.equal(twice.message, 'Agent instance already running for this project');

    assert.deepEqual(await c.call('logout', { session_token: auth.session_token }), { success: true });
    const after = await c.fail('get_my_task', { session_token: auth.session_token });
    assert.deepEqual(
      { reason: after.reason, message: after.message },
      { reason: 'Unauthorized', message: 'Invalid or expired session_token' },
    );
    assert.equal((await c.fail('logout', { session_token: auth.session_token })).reason, 'Unauthorized');
    assert.equal((await c.fail('get_my_task', { session_token: 'made-up' })).reason, 'Unauthorized');
    // Logged out: the pair is free again.
    await c.call<Auth>('authenticate', { agent_id: 'coder', passkey: PASSKEY, project_id: 'prj-1' });
  } finally {
    await c.close();
  }
});

test('get_my_task hands out the task with its folder and records the run; report_completed refuses a parent with open sub-tasks, then ends the session', async () => {
  const { repo, c } = await pmWorld();
  try {
    const auth = await c.call<Auth>('authenticate', { agent_id: 'coder', passkey: PASSKEY, project_id: 'prj-1' });
    const none = await c.call<MyTask>('get_my_task', { session_token: auth.session_token });
    assert.deepEqual(Object.keys(none).sort(), ['has_task', 'instruction', 'success']);
    assert.equal(none.has_task, false);

    // A task tracked with start_task (the tracking family), with a sub-task: the same tasks.
    const wf = await c.call<{ workflow_id: string }>('start_workflow', { name: 'Web' });
    const parent = await c.call<{ task_id: string }>('start_task', {
      workflow_id: wf.workflow_id,
      name: 'Login page',
      goal: 'A login page',
    });
    const child = await c.call<{ task_id: string }>('start_task', {
      workflow_id: wf.workflow_id,
      parent_task_id: parent.task_id,
      name: 'Form',
      goal: 'The form',
    });
    // coder is on two projects: none is chosen for it, and nothing is written (the task would never be handed out).
    const several = await c.fail('assign_task', { task_id: parent.task_id, assignee_id: 'coder' });
    assert.equal(several.reason, 'ValidationError');
    assert.match(several.message, /agent coder is on 2 projects: web \(prj-1\), api \(prj-2\); pass project_id/);
    assert.deepEqual(several.data?.projects, [
      { project_id: 'prj-1', name: 'web' },
      { project_id: 'prj-2', name: 'api' },
    ]);
    const untouched = await c.call<{ task: { assignee_id: string | null; project_id: string | null } }>('get_task', {
      task_id: parent.task_id,
    });
    assert.deepEqual([untouched.task.assignee_id, untouched.task.project_id], [null, null]);
    await c.call('assign_task', { task_id: parent.task_id, assignee_id: 'coder', project_id: 'web' });

    const mine = await c.call<MyTask>('get_my_task', { session_token: auth.session_token });
    assert.equal(mine.has_task, true);
    assert.deepEqual(Object.keys(mine.task ?? {}).sort(), [
      'context',
      'description',
      'handoff',
      'task_id',
      'title',
      'working_directory',
    ]);
    assert.equal(mine.task?.title, 'Login page');
    assert.equal(mine.task?.description, 'A login page');
    assert.equal(mine.task?.working_directory, path.join(repo, 'packages/web'));
    assert.equal(mine.task?.context, null);
    assert.equal(mine.task?.handoff, null);
    assert.match(mine.instruction, /report_completed/);
    const again = await c.call<MyTask>('get_my_task', { session_token: auth.session_token });
    assert.equal(again.task?.task_id, mine.task?.task_id);

    const logs = await c.call<{ logs: { executionId: string; status: string; agentId: string; taskId: string }[] }>(
      'list_execution_logs',
      { task_id: mine.task?.task_id },
    );
    assert.equal(logs.logs.length, 1, 'one run, however often get_my_task is called');
    assert.equal(logs.logs[0].status, 'running');

    const refused = await c.fail('report_completed', {
      session_token: auth.session_token,
      result: 'success',
      summary: 'done',
    });
    assert.equal(refused.reason, 'InvalidStatus');
    assert.match(refused.message, /sub-tasks .* are open/);
    assert.deepEqual(refused.data?.open_subtasks, [`task-${Number(String(child.task_id).replace(/\D/g, ''))}`]);

    await c.call('update_task_status', { task_id: child.task_id, status: 'done' });
    const done = await c.call<{ success: true; task_id: string; status: string; instruction: string }>(
      'report_completed',
      {
        session_token: auth.session_token,
        result: 'success',
        summary: 'Login page works',
        next_steps: 'Add a reset link',
      },
    );
    assert.equal(done.status, 'done');
    assert.equal(done.task_id, mine.task?.task_id);
    const task = await c.call<{ task: { status: string; completed_at: string | null } }>('get_task', {
      task_id: done.task_id,
    });
    assert.equal(task.task.status, 'done');
    assert.ok(task.task.completed_at);
    const ctx = await c.call<{ context: { progress: string; next_steps: string; agent_id: string } }>(
      'get_task_context',
      { task_id: done.task_id },
    );
    assert.deepEqual(
      [ctx.context.progress, ctx.context.next_steps, ctx.context.agent_id],
      ['Login page works', 'Add a reset link', 'coder'],
    );
    const log = await c.call<{
      log: { status: string; result: string; summary: string; durationSeconds: number; completedAt: string };
    }>('get_execution_log', { execution_id: logs.logs[0].executionId });
    assert.deepEqual([log.log.status, log.log.result, log.log.summary], ['completed', 'success', 'Login page works']);
    assert.ok(log.log.durationSeconds >= 0 && log.log.completedAt);
    assert.equal(
      (await c.fail('get_my_task', { session_token: auth.session_token })).reason,
      'Unauthorized',
      'report_completed ended the session',
    );
  } finally {
    await c.close();
  }
});

test('report_completed failed and blocked: the task fails, or goes back to open with its blocker, so the runner does not relaunch it', async () => {
  const { c } = await pmWorld();
  try {
    const t1 = await runningTask(c, 'Flaky', 'coder', 'web');
    let auth = await c.call<Auth>('authenticate', { agent_id: 'coder', passkey: PASSKEY, project_id: 'web' });
    await c.call('get_my_task', { session_token: auth.session_token });
    assert.equal(
      (
        await c.call<{ status: string }>('report_completed', {
          session_token: auth.session_token,
          result: 'failed',
          summary: 'tests crash',
        })
      ).status,
      'failed',
    );
    const t2 = await runningTask(c, 'Needs a key', 'coder', 'web');
    auth = await c.call<Auth>('authenticate', { agent_id: 'coder', passkey: PASSKEY, project_id: 'web' });
    await c.call('get_my_task', { session_token: auth.session_token });
    assert.equal(
      (
        await c.call<{ status: string }>('report_completed', {
          session_token: auth.session_token,
          result: 'blocked',
          summary: 'no API key',
        })
      ).status,
      'open',
    );
    const ctx = await c.call<{ context: { blockers: string } }>('get_task_context', { task_id: t2 });
    assert.equal(ctx.context.blockers, 'no API key');
    assert.deepEqual(await c.call('should_start', { agent_id: 'coder', project_id: 'web' }), { should_start: false });
    const logs = await c.call<{ logs: { taskId: string; status: string; result: string }[] }>('list_execution_logs', {
      agent_id: 'coder',
    });
    assert.deepEqual(
      logs.logs.map((l) => [l.taskId, l.status, l.result]),
      [
        [t2, 'failed', 'blocked'],
        [t1, 'failed', 'failed'],
      ],
    );
    assert.equal(
      (await c.fail('report_completed', { session_token: auth.session_token, result: 'maybe' })).reason,
      'ValidationError',
    );
  } finally {
    await c.close();
  }
});

test('get_my_task with wait_ms returns the moment a task is assigned by another process, and at its limit when none is', async () => {
  const { repo, c } = await pmWorld();
  const pm = await connect(repo, ['--enable-pm']);
  try {
    const auth = await c.call<Auth>('authenticate', { agent_id: 'reviewer', passkey: PASSKEY, project_id: 'web' });
    let t0 = Date.now();
    const empty = await c.call<MyTask>('get_my_task', { session_token: auth.session_token, wait_ms: 400 });
    assert.equal(empty.has_task, false);
    assert.ok(Date.now() - t0 >= 350, 'it waited');

    t0 = Date.now();
    const waiting = c.call<MyTask>('get_my_task', { session_token: auth.session_token, wait_ms: 30_000 });
    await new Promise((r) => setTimeout(r, 300));
    const id = await runningTask(pm, 'Review the login page', 'reviewer', 'web');
    const got = await waiting;
    const took = Date.now() - t0;
    assert.equal(got.has_task, true);
    assert.equal(got.task?.task_id, id);
    assert.ok(took < 15_000, `returned when the task was assigned, not at the limit (${took} ms)`);
    assert.equal(
      (await c.fail('get_my_task', { session_token: auth.session_token, wait_ms: 60_000 })).reason,
      'ValidationError',
      'waits are bounded at 50 s',
    );
  } finally {
    await pm.close();
    await c.close();
  }
});

test('sessions expire after inactivity, activity extends them, and an expired session frees its (agent, project)', async () => {
  const { c } = await pmWorld({ AGENT_LEDGER_SESSION_TTL_SECONDS: '2' });
  try {
    await runningTask(c, 'Slow work', 'coder', 'web');
    const auth = await c.call<Auth>('authenticate', { agent_id: 'coder', passkey: PASSKEY, project_id: 'web' });
    assert.equal(auth.expires_in, 2);
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 1200));
      assert.equal(
        (await c.call<MyTask>('get_my_task', { session_token: auth.session_token })).has_task,
        true,
        `call ${i + 1} kept the session alive`,
      );
    }
    assert.deepEqual(await c.call('should_start', { agent_id: 'coder', project_id: 'web' }), { should_start: false });
    await new Promise((r) => setTimeout(r, 2300));
    assert.equal((await c.fail('get_my_task', { session_token: auth.session_token })).reason, 'Unauthorized');
    assert.deepEqual(
      await c.call('should_start', { agent_id: 'coder', project_id: 'web' }),
      { should_start: true, ai_type: 'claude' },
      'the expired session no longer counts as running',
    );
    await c.call<Auth>('authenticate', { agent_id: 'coder', passkey: PASSKEY, project_id: 'web' });
  } finally {
    await c.close();
  }
});
