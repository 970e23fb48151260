/**
 * The two gates before a task starts, through every door that starts one: dependencies done
 * (start_task, worker_command, get_my_task, the runner) and no write-scope overlap with a task
 * someone is working on (worker_command, the runner). Real server processes over the SDK client,
 * the real `agent-ledger runner --once` process with the scripted `claude` on PATH.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeAgents, logIn } from '../helpers/fakeAgents';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';
import { PASSKEY, pmWorld, runnerOnce } from './pmHelpers';

const edge = (from: string, to: string) => ({ op: 'add_edge', edge: { from, to, label: 'depends_on' } });
const addNode = (id: string) => ({ op: 'add_node', node: { id, label: id } });

/** A task of `workflow` assigned to `agent` in `project`, in progress (start_task took its snapshot). */
async function plannedTask(
  c: LedgerClient,
  workflowId: string,
  title: string,
  agent: string,
  project: string,
  areas: string[] = [],
): Promise<string> {
  const t = await c.call<{ id: number }>('task_create', { title, description: `do ${title}` });
  await c.call('assign_task', { task_id: t.id, assignee_id: agent, project_id: project });
  const started = await c.call<{ task_id: string }>('start_task', {
    task_id: t.id,
    workflow_id: workflowId,
    name: title,
    goal: `do ${title}`,
    areas,
  });
  return started.task_id;
}

test('start_task and worker_command refuse a task whose dependencies are not done, naming them, change nothing, and start it with force', async () => {
  const c = await connect(tempRepo({ 'src/a.ts': 'a\n' }), ['--enable-orchestrator']);
  try {
    const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', { name: 'ship' });
    const a = await c.call<{ task_id: string }>('start_task', { workflow_id, name: 'build', goal: 'build it' });
    const b = await c.call<{ id: number }>('task_create', { title: 'deploy' });
    const w = await c.call<{ id: number }>('task_create', { title: 'announce' });
    await c.call('graph_batch_mutate', {
      graph_id: workflow_id,
      operations: [
        addNode(`task-${b.id}`),
        edge(a.task_id, `task-${b.id}`),
        addNode(`task-${w.id}`),
        edge(a.task_id, `task-${w.id}`),
      ],
    });
    // task_create tasks join the workflow when started; worker_command needs one in the workflow already.
    await c.call('start_task', { task_id: w.id, workflow_id, name: 'announce', goal: 'announce it', force: true });

    const refused = await c.fail('start_task', { task_id: b.id, workflow_id, name: 'deploy', goal: 'deploy it' });
    assert.equal(refused.reason, 'InvalidStatus');
    assert.equal(refused.data?.reason, 'dependenciesNotDone');
    assert.deepEqual(refused.data?.blockedBy, [a.task_id]);
    assert.match(refused.message, new RegExp(`waits for ${a.task_id} \\(in_progress\\).*force: true`));
    const still = await c.call<{ status: string; snapshotId?: string | null }>('task_get', { id: b.id });
    assert.equal(still.status, 'open', 'a refused start changes nothing');
    const resource = JSON.parse(
      ((await c.client.readResource({ uri: `task://${w.id}` })).contents[0] as { text: string }).text,
    ) as { dependencies: unknown };
    assert.deepEqual(
      resource.dependencies,
      {
        graph_id: workflow_id,
        depends_on: [{ id: a.task_id, status: 'in_progress', done: false }],
        dependents: [],
        ready: false,
      },
      'task:// shows its dependencies',
    );

    const forced = await c.call<{ task_id: string }>('start_task', {
      task_id: b.id,
      workflow_id,
      name: 'deploy',
      goal: 'deploy it',
      force: true,
    });
    assert.equal(forced.task_id, `task-${b.id}`);
    assert.equal((await c.call<{ status: string }>('task_get', { id: b.id })).status, 'in_progress');

    // worker_command on a task of the workflow whose dependency is not done.
    const worker = await c.fail('worker_command', { taskId: w.id });
    assert.equal(worker.data?.reason, 'dependenciesNotDone');
    assert.deepEqual(worker.data?.blockedBy, [a.task_id]);
    const sessions = await c.call<{ sessions: unknown[] }>('session_list', { taskId: w.id });
    assert.equal(sessions.sessions.length, 0, 'no session was started');
    await c.call('complete_task', { task_id: a.task_id, status: 'success', outcome: { summary: 'built' } });
    const started = await c.call<{ sessionId: number }>('worker_command', { taskId: w.id });
    assert.ok(started.sessionId > 0, 'once its dependency is done it starts');
  } finally {
    await c.close();
  }
});

test('worker_command from two processes on overlapping tasks: one starts, the other is refused naming it; allowOverlap overrides', async () => {
  const repo = tempRepo({ 'src/api/a.ts': 'a\n', 'src/web/w.ts': 'w\n' });
  const one = await connect(repo);
  const two = await connect(repo);
  try {
    const { workflow_id } = await one.call<{ workflow_id: string }>('start_workflow', { name: 'two agents' });
    const ids: number[] = [];
    for (const name of ['api login', 'api logout']) {
      const t = await one.call<{ id: number }>('task_create', { title: name });
      await one.call('start_task', { task_id: t.id, workflow_id, name, goal: name, areas: ['src/api'] });
      ids.push(t.id);
    }
    // Both started with start_task: back to open so worker_command starts them (a cancel, then a reopen).
    for (const id of ids) {
      await one.call('task_update', { id, status: 'cancelled' });
      await one.call('task_update', { id, status: 'open' });
    }
    const results = await Promise.allSettled([
      one.call('worker_command', { taskId: ids[0] }),
      two.call('worker_command', { taskId: ids[1] }),
    ]);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(ok.length, 1, `exactly one starts: ${JSON.stringify(results.map((r) => r.status))}`);
    // The helper's call rejects with `<tool> failed: <the tool's JSON>`.
    const message = String((failed[0].reason as Error).message);
    const error = (
      JSON.parse(message.slice(message.indexOf('{'))) as {
        error: { data?: { reason?: string; error?: string; blockedBy?: string[] } };
      }
    ).error;
    assert.equal(error.data?.reason, 'writeScopeConflict');
    assert.equal(error.data?.error, 'E-CNP-SCOPE-CONFLICT');
    const loser = results[0].status === 'rejected' ? ids[0] : ids[1];
    const winner = loser === ids[0] ? ids[1] : ids[0];
    assert.deepEqual(error.data?.blockedBy, [`task-${winner}`]);
    const overridden = await one.call<{ sessionId: number }>('worker_command', { taskId: loser, allowOverlap: true });
    assert.ok(overridden.sessionId > 0, 'allowOverlap starts it anyway');
  } finally {
    await one.close();
    await two.close();
  }
});

test('get_my_task never hands out a task whose dependencies are not done: it names them, and hands it out once they are', async () => {
  const { repo, c } = await pmWorld();
  const orch = await connect(repo, ['--enable-orchestrator']);
  try {
    const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', { name: 'plan' });
    const first = await c.call<{ task_id: string }>('start_task', { workflow_id, name: 'schema', goal: 'schema' });
    const second = await plannedTask(c, workflow_id, 'Login page', 'coder', 'web');
    await orch.call('graph_batch_mutate', { graph_id: workflow_id, operations: [edge(first.task_id, second)] });

    const { session_token } = await c.call<{ session_token: string }>('authenticate', {
      agent_id: 'coder',
      passkey: PASSKEY,
      project_id: 'web',
    });
    const none = await c.call<{ has_task: boolean; instruction: string }>('get_my_task', { session_token });
    assert.equal(none.has_task, false);
    assert.match(none.instruction, new RegExp(`${second} waits for ${first.task_id}`));
    const logs = await c.call<{ logs: unknown[] }>('list_execution_logs', { task_id: second });
    assert.equal(logs.logs.length, 0, 'no run was opened for the blocked task');

    await c.call('complete_task', { task_id: first.task_id, status: 'success', outcome: { summary: 'done' } });
    const got = await c.call<{ has_task: boolean; task: { task_id: string } }>('get_my_task', { session_token });
    assert.equal(got.has_task, true);
    assert.equal(got.task.task_id, second);
  } finally {
    await orch.close();
    await c.close();
  }
});

test('the runner launches neither a task whose dependencies are not done nor one that overlaps a running task, says why in --json, and --allow-overlap launches the latter', async () => {
  const { repo, c } = await pmWorld();
  const orch = await connect(repo, ['--enable-orchestrator']);
  const fakes = fakeAgents();
  try {
    const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', { name: 'plan' });
    const schema = await c.call<{ task_id: string }>('start_task', {
      workflow_id,
      name: 'schema',
      goal: 'schema',
      areas: ['packages/web/db'],
    });
    const login = await plannedTask(c, workflow_id, 'Login page', 'coder', 'web');
    const review = await plannedTask(c, workflow_id, 'Review the db', 'reviewer', 'web', ['packages/web/db']);
    await orch.call('graph_batch_mutate', { graph_id: workflow_id, operations: [edge(schema.task_id, login)] });

    const env = fakes.env({
      steps: [
        logIn,
        { call: 'get_my_task', args: {} },
        { call: 'report_completed', args: { result: 'success', summary: 'ok' } },
      ],
    });
    const held = runnerOnce(repo, env);
    assert.equal(held.code, 0, held.stderr);
    assert.deepEqual(
      held.events.filter((e) => e.kind === 'launched'),
      [],
      'nothing launched',
    );
    // One line per (agent, project): coder has nothing queued in api, and says so too.
    const holds = held.events.filter((e) => e.kind === 'held');
    assert.deepEqual(
      holds.filter((e) => e.projectId === 'prj-2').map((e) => [e.agentId, e.reason]),
      [['coder', 'noTask']],
    );
    const byAgent = Object.fromEntries(
      holds.filter((e) => e.projectId === 'prj-1').map((e) => [e.agentId as string, e]),
    );
    assert.equal(byAgent.coder?.reason, 'dependencies');
    assert.deepEqual(byAgent.coder?.blockedBy, [schema.task_id]);
    assert.equal(byAgent.coder?.taskId, login);
    assert.equal(byAgent.reviewer?.reason, 'conflict');
    assert.equal(byAgent.reviewer?.taskId, review);
    assert.deepEqual(byAgent.reviewer?.blockedBy, [schema.task_id], 'the running task it would collide with');
    assert.match(String(byAgent.reviewer?.detail), /packages\/web\/db/);
    assert.equal(fakes.runs().length, 0, 'no client was started');
    // The runner's reasons reach the ledger: task_get says why each agent is idle.
    const waitingOf = async (id: string) =>
      (await c.call<{ waiting: { reason: string; blockedBy: string[] } | null }>('task_get', { id })).waiting;
    assert.deepEqual(await waitingOf(login), {
      ...(await waitingOf(login))!,
      reason: 'dependencies',
      blockedBy: [schema.task_id],
    });
    assert.equal((await waitingOf(review))?.reason, 'conflict');

    const overlap = runnerOnce(repo, env, ['--allow-overlap']);
    assert.equal(overlap.code, 0, overlap.stderr);
    assert.deepEqual(
      overlap.events.filter((e) => e.kind === 'launched').map((e) => (e.instance as { agentId: string }).agentId),
      ['reviewer'],
      'the overlap is overridden; the dependency is not',
    );
    // Launched on purpose past the overlap, the agent is handed its task (not refused it for the same overlap).
    assert.equal((await c.call<{ task: { status: string } }>('get_task', { task_id: review })).task.status, 'done');
  } finally {
    await orch.close();
    await c.close();
  }
});

test('get_my_task skips a task whose write scope overlaps a running task’s, says which, hands out the next ready one, and the held one once that task ends', async () => {
  const { c } = await pmWorld();
  try {
    const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', { name: 'plan' });
    const schema = await c.call<{ task_id: string }>('start_task', {
      workflow_id,
      name: 'schema',
      goal: 'schema',
      areas: ['packages/web/db'],
    });
    const migrate = await plannedTask(c, workflow_id, 'Migrate the db', 'reviewer', 'web', ['packages/web/db/**']);

    const { session_token } = await c.call<{ session_token: string }>('authenticate', {
      agent_id: 'reviewer',
      passkey: PASSKEY,
      project_id: 'web',
    });
    const none = await c.call<{ has_task: boolean; instruction: string }>('get_my_task', { session_token });
    assert.equal(none.has_task, false, 'its only task would write where schema writes');
    assert.match(
      none.instruction,
      new RegExp(`${migrate} waits: it would write where a running task writes \\(${schema.task_id}.*packages/web/db`),
    );
    assert.equal(
      (await c.call<{ logs: unknown[] }>('list_execution_logs', { task_id: migrate })).logs.length,
      0,
      'no run was opened for it',
    );

    // A newer task that overlaps nothing is handed out instead.
    const page = await plannedTask(c, workflow_id, 'Login page', 'reviewer', 'web', ['packages/web/pages']);
    const next = await c.call<{ has_task: boolean; task?: { task_id: string } }>('get_my_task', { session_token });
    assert.equal(next.task?.task_id, page);
    await c.call('report_completed', { session_token, result: 'success', summary: 'page done' });

    // Once schema is done, the held task is free.
    await c.call('complete_task', { task_id: schema.task_id, status: 'success', outcome: { summary: 'done' } });
    const again = await c.call<{ session_token: string }>('authenticate', {
      agent_id: 'reviewer',
      passkey: PASSKEY,
      project_id: 'web',
    });
    const got = await c.call<{ has_task: boolean; task?: { task_id: string } }>('get_my_task', {
      session_token: again.session_token,
    });
    assert.equal(got.task?.task_id, migrate);
  } finally {
    await c.close();
  }
});
