/**
 * Running a plan with agents, end to end: a workflow's plan graph run as a behaviour tree
 * (plan_run_bt / plan_run_reactive) whose task leaves are queued for their agents, launched by the
 * real `agent-ledger runner` process with the scripted agent clients on PATH, each agent reporting
 * through its own MCP server — the task lifecycle then takes the plan's next step. Real server
 * processes over the SDK client, a real Git repository, the embedded store (and PostgreSQL with
 * `--pg`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { cli, cliJson } from '../helpers/cli';
import type { Execution, RunStatus } from './planRunHelpers';
import {
  alive,
  dependsOn,
  executionsOf,
  planTask,
  planWorld,
  startRunner,
  untilEnded,
  working,
} from './planRunHelpers';

test('an 8-task diamond runs to the end: dependencies first, overlapping scopes one at a time, independent tasks at once, each launched once', async () => {
  const agents = ['coder', 'reviewer', 'a3', 'a4', 'a5', 'a6'];
  const w = await planWorld(agents);
  const t1 = await planTask(w, 'schema', ['packages/web/core']);
  const t2 = await planTask(w, 'users table', ['packages/web/db']);
  const t3 = await planTask(w, 'orders table', ['packages/web/db']);
  const t4 = await planTask(w, 'api', ['packages/web/api']);
  const t5 = await planTask(w, 'docs', ['packages/web/docs']);
  const t6 = await planTask(w, 'release notes', ['packages/web/notes']);
  const t7 = await planTask(w, 'styles', ['packages/web/styles']);
  const t8 = await planTask(w, 'icons', ['packages/web/icons']);
  const edges: Array<[string, string]> = [
    [t1, t2],
    [t1, t3],
    [t2, t4],
    [t3, t4],
    [t4, t6],
  ];
  await dependsOn(w, edges);
  const assign = {
    [t1]: 'coder',
    [t2]: 'reviewer',
    [t3]: 'a3',
    [t4]: 'coder',
    [t5]: 'a4',
    [t6]: 'reviewer',
    [t7]: 'a5',
    [t8]: 'a6',
  };

  const dry = await w.orch.call<{
    order: Array<{ id: string; wave: number; agent: string }>;
    conflicts: Array<{ a: string; b: string }>;
    problems: string[];
  }>('plan_dry_run', { graph_id: w.workflowId, agents: assign });
  assert.deepEqual(dry.problems, []);
  assert.deepEqual(
    dry.conflicts.map((c) => [c.a, c.b].sort()),
    [[t2, t3].sort()],
    'the dry run names the one pair of one wave whose scopes overlap',
  );
  const wave = Object.fromEntries(dry.order.map((o) => [o.id, o.wave]));
  assert.deepEqual([wave[t1], wave[t2], wave[t3], wave[t4], wave[t6], wave[t5]], [0, 1, 1, 2, 3, 0]);

  const runner = startRunner(
    w.repo,
    w.fakes.env({ steps: [], byAgent: Object.fromEntries(agents.map((a) => [a, working(1200)])) }),
  );
  try {
    const started = await w.orch.call<RunStatus & { idempotent: boolean }>('plan_run_reactive', {
      graph_id: w.workflowId,
      agents: assign,
      tick_ms: 200,
      idempotency_key: 'diamond-1',
    });
    assert.equal(started.status, 'running');
    assert.equal(started.idempotent, false);
    const queuedNow = started.nodes.filter((n) => n.type === 'task' && n.status === 'running').map((n) => n.task_id);
    assert.deepEqual(
      queuedNow.sort(),
      [t1, t5, t7, t8].sort(),
      'the first tick queues exactly the tasks with nothing to wait for',
    );
    const again = await w.orch.call<RunStatus & { idempotent: boolean }>('plan_run_reactive', {
      graph_id: w.workflowId,
      agents: assign,
      tick_ms: 200,
      idempotency_key: 'diamond-1',
    });
    assert.equal(again.idempotent, true, 'a retried call with its key starts nothing twice');
    assert.equal(again.run_id, started.run_id);
    const second = await w.orch.fail('plan_run_bt', { graph_id: w.workflowId, agents: assign });
    assert.equal(second.data?.reason, 'planRunActive', 'a second run of the same plan is refused while one is active');

    const ended = await untilEnded(w.orch, started.run_id).catch((err: Error) => {
      throw new Error(`${err.message}\nrunner:\n${runner.summary()}`);
    });
    assert.equal(ended.status, 'succeeded', JSON.stringify(ended.nodes));
    assert.equal(ended.progress.succeeded, 8);

    const runs: Record<string, Execution> = {};
    for (const t of [t1, t2, t3, t4, t5, t6, t7, t8]) {
      const logs = await executionsOf(w.orch, t);
      assert.equal(logs.length, 1, `${t} was launched exactly once: ${JSON.stringify(logs)}`);
      assert.equal(logs[0].agentId, assign[t]);
      runs[t] = logs[0];
    }
    // A task's work: from its agent's launch to the moment its task was done (the agent's report;
    // the run itself closes when the runner records the process's exit, a moment later).
    const doneAt: Record<string, string> = {};
    for (const t of Object.keys(runs))
      doneAt[t] = (await w.orch.call<{ completedAt: string }>('task_get', { id: Number(t.slice(5)) })).completedAt;
    const start = (t: string) => Date.parse(runs[t].startedAt);
    const end = (t: string) => Date.parse(doneAt[t]);
    for (const [from, to] of edges)
      assert.ok(
        start(to) >= end(from),
        `${to} started after ${from} was done (${doneAt[from]} → ${runs[to].startedAt})`,
      );
    assert.ok(end(t2) <= start(t3) || end(t3) <= start(t2), 'the two tasks writing packages/web/db never ran at once');
    const overlapping = (a: string, b: string) => start(a) < end(b) && start(b) < end(a);
    assert.ok(
      overlapping(t1, t5) && overlapping(t7, t8),
      `independent tasks ran at once: ${JSON.stringify(Object.fromEntries(Object.entries(runs).map(([k, r]) => [k, [r.startedAt, doneAt[k]]])))}`,
    );

    const events = await w.orch.call<{
      events: Array<{ kind: string; msg: string; run_id: string; data: Record<string, unknown> }>;
    }>('events_subscribe', { run_id: started.run_id, limit: 500, wait_ms: 0 });
    const kinds = new Set(events.events.map((e) => `${e.kind}:${e.msg}`));
    assert.ok(kinds.has('BT_RUN:BT_RUN'), [...kinds].join());
    assert.ok(kinds.has('SCHEDULER:scheduler_tick_result'), [...kinds].join());
    assert.ok(kinds.has('SCHEDULER:scheduler_event_enqueued'), 'a task that ended enqueued the scheduler event');
    const tickEvent = events.events.find((e) => e.msg === 'scheduler_tick_result')!;
    for (const field of [
      'event_type',
      'msg',
      'pending_before',
      'pending',
      'pending_after',
      'base_priority',
      'duration_ms',
      'batch_index',
      'ticks_in_batch',
      'sequence',
      'priority',
      'event_payload',
      'run_id',
      'op_id',
      'job_id',
      'graph_id',
      'node_id',
      'child_id',
    ])
      assert.ok(field in tickEvent.data, `SCHEDULER carries ${field}`);
    // The same events as SSE, field by field, and as the run's resource stream.
    const sse = await w.orch.call<{ stream: string; events: unknown[] }>('events_subscribe', {
      run_id: started.run_id,
      limit: 500,
      wait_ms: 0,
      format: 'sse',
    });
    const data = sse.stream
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as unknown);
    assert.deepEqual(data, events.events, 'SSE data lines carry exactly the JSON Lines records');
    const watched = await w.orch.call<{ events: Array<{ kind: string }> }>('resources_watch', {
      uri: `sc://runs/${started.run_id}/events`,
      limit: 500,
      wait_ms: 0,
    });
    assert.equal(watched.events.length, events.events.length, 'resources_watch streams the same events');
    const phases = events.events.filter((e) => e.kind === 'BT_RUN').map((e) => e.data.phase);
    assert.equal(phases[0], 'start');
    assert.equal(phases[phases.length - 1], 'complete');
  } finally {
    await runner.stop();
    await w.orch.close();
  }
});

test('a failing leaf under retry (max_attempts 3) runs three times, then its fallback runs; a gate waits for a person, who approves it from the CLI', async () => {
  const w = await planWorld(['coder', 'flaky', 'reviewer']);
  const a = await planTask(w, 'migrate the old way');
  const b = await planTask(w, 'migrate the new way');
  const c = await planTask(w, 'ship it');
  const runner = startRunner(
    w.repo,
    w.fakes.env({ steps: [], byAgent: { flaky: working(100, 'failed'), coder: working(100), reviewer: working(100) } }),
  );
  try {
    const started = await w.orch.call<RunStatus>('plan_run_bt', {
      tree: {
        id: 'migration',
        root: {
          type: 'sequence',
          id: 'all',
          children: [
            {
              type: 'selector',
              id: 'migrate',
              children: [
                { type: 'retry', id: 'again', max_attempts: 3, child: { type: 'task', node_id: a, agent: 'flaky' } },
                { type: 'task', node_id: b, agent: 'coder' },
              ],
            },
            { type: 'gate', id: 'go-live', title: 'the migration looks right' },
            { type: 'task', node_id: c, agent: 'reviewer' },
          ],
        },
      },
    });
    // Wait until the gate is what the run waits for.
    let status: RunStatus | undefined;
    for (let i = 0; i < 200; i++) {
      status = (await w.orch.call<{ runs: RunStatus[] }>('plan_status', { run_id: started.run_id })).runs[0];
      if (status.nodes.find((n) => n.id === 'go-live')?.reason?.startsWith('waits for a person')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const node = (id: string) => status!.nodes.find((n) => n.id === id)!;
    assert.match(node('go-live').reason ?? '', /waits for a person/, JSON.stringify(status!.nodes));
    assert.equal((await executionsOf(w.orch, a)).length, 3, 'the failing leaf ran three times');
    assert.equal(node(a).attempts, 3);
    assert.equal(node('again').status, 'failure');
    assert.equal((await executionsOf(w.orch, b)).length, 1, 'then the fallback ran, once');
    assert.equal(node(b).status, 'success');
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal((await executionsOf(w.orch, c)).length, 0, 'nothing after the gate starts before a person approves');
    assert.equal(status!.status, 'running');

    const refused = cli(['plan', 'approve', started.run_id, 'no-such-gate', '--workspace', w.repo]);
    assert.equal(refused.code, 2, refused.stderr);
    const approved = cli(['plan', 'approve', started.run_id, 'go-live', '--note', 'checked', '--workspace', w.repo]);
    assert.equal(approved.code, 0, approved.stderr);
    const ended = await untilEnded(w.orch, started.run_id);
    assert.equal(
      ended.nodes.find((n) => n.id === 'go-live')?.decided_by,
      `person:${os.userInfo().username}`,
      'a terminal is the machine’s user',
    );
    assert.equal(ended.status, 'succeeded', JSON.stringify(ended.nodes));
    assert.equal((await executionsOf(w.orch, c)).length, 1);
  } finally {
    await runner.stop();
    await w.orch.close();
  }
});

test('plan_pause holds back what no agent took yet, so the runner launches nothing; plan_resume goes on; plan_cancel stops the running agent and leaves no process', async () => {
  const w = await planWorld(['coder', 'reviewer']);
  const t1 = await planTask(w, 'long job', ['packages/web/a']);
  const t2 = await planTask(w, 'other job', ['packages/web/b']);
  const started = await w.orch.call<RunStatus>('plan_run_bt', {
    graph_id: w.workflowId,
    agents: { [t1]: 'coder', [t2]: 'reviewer' },
  });
  assert.deepEqual(
    started.nodes
      .filter((n) => n.type === 'task' && n.status === 'running')
      .map((n) => n.task_id)
      .sort(),
    [t1, t2].sort(),
  );
  // From a terminal: the person at it (the machine's user), and the run says so.
  const paused = cliJson<RunStatus>(['plan', 'pause', started.run_id, '--workspace', w.repo]);
  assert.equal(paused.status, 'paused');
  assert.equal(paused.reason, `paused by person:${os.userInfo().username}`);
  assert.deepEqual(
    paused.nodes.filter((n) => n.type === 'task').map((n) => n.status),
    ['ready', 'ready'],
    'both queued tasks were held back',
  );
  const again = await w.orch.fail('plan_pause', { run_id: started.run_id });
  assert.equal(again.reason, 'InvalidStatus');

  const env = w.fakes.env({
    steps: [],
    byAgent: {
      coder: { steps: [...working(0).steps.slice(0, 2), { print: 'working' }, { sleep: 120_000 }] },
      reviewer: working(100),
    },
  });
  const runner = startRunner(w.repo, env);
  try {
    // Several polls go by: a paused plan launches nothing.
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(
      runner.events.filter((e) => e.kind === 'launched'),
      [],
      'nothing launched while paused',
    );

    const resumed = await w.orch.call<RunStatus>('plan_resume', { run_id: started.run_id });
    assert.equal(resumed.status, 'running');
    const launched = await runner.until(
      (e) => e.kind === 'launched' && (e.instance as { agentId: string }).agentId === 'coder',
    );
    const pid = (launched.instance as { pid: number }).pid;
    assert.ok(alive(pid));
    await runner.until((e) => e.kind === 'ended' && (e.instance as { agentId: string }).agentId === 'reviewer');

    const cancelled = await w.orch.call<RunStatus & { not_stopped?: string[] }>('plan_cancel', {
      run_id: started.run_id,
      reason: 'changed our minds',
    });
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.not_stopped, undefined);
    assert.equal(cancelled.nodes.find((n) => n.task_id === t1)?.status, 'cancelled');
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(alive(pid), false, 'the running agent was stopped');
    const task = await w.orch.call<{ status: string }>('task_get', { id: Number(t1.slice(5)) });
    assert.equal(task.status, 'cancelled');
    const refused = await w.orch.fail('plan_resume', { run_id: started.run_id });
    assert.equal(refused.reason, 'InvalidStatus');
  } finally {
    await runner.stop();
    await w.orch.close();
  }
});

test('plan run --client codex --model m: every task is launched with that client and model; an unknown client starts nothing', async () => {
  const w = await planWorld(['coder']);
  const t1 = await planTask(w, 'first', ['packages/web/a']);
  const t2 = await planTask(w, 'second', ['packages/web/b']);
  await dependsOn(w, [[t1, t2]]);
  const runner = startRunner(w.repo, w.fakes.env({ steps: [], byAgent: { coder: working(100) } }));
  try {
    const refused = cli(['plan', 'run', w.workflowId, '--agent', 'coder', '--client', 'cursor', '--workspace', w.repo]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /client/);
    assert.deepEqual((await w.orch.call<{ runs: RunStatus[] }>('plan_status', {})).runs, [], 'nothing started');

    const started = cliJson<RunStatus & { client: string | null; model: string | null }>([
      'plan',
      'run',
      w.workflowId,
      '--agent',
      'coder',
      '--client',
      'codex',
      '--model',
      'gpt-5-codex',
      '--workspace',
      w.repo,
    ]);
    assert.deepEqual([started.client, started.model], ['codex', 'gpt-5-codex']);
    const ended = await untilEnded(w.orch, started.run_id);
    assert.equal(ended.status, 'succeeded', runner.summary());
    const runs = w.fakes.runs();
    assert.deepEqual(
      runs.map((r) => r.client),
      ['codex', 'codex'],
      'both tasks launched with the run’s client, not the coder’s own',
    );
    for (const r of runs) assert.ok(r.argv.includes('--model=gpt-5-codex'), r.argv.join(' '));
  } finally {
    await runner.stop();
    await w.orch.close();
  }
});
