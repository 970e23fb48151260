/**
 * The runner end to end, as a user runs it: `agent-ledger runner --once` as a real process, the
 * scripted `claude` on PATH playing each agent against the ledger's own MCP server (started by
 * the fake client from the configuration the runner wrote), and the results read back through
 * the pm tools. No passkey is given to any agent: they log in with the runner's launch ticket.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FakeScript } from '../helpers/fakeAgents';
import { fakeAgents, logIn } from '../helpers/fakeAgents';
import { ledgerEnv } from '../helpers/testLedger';
import { LedgerForRunner } from '../../src/core/runtime/runner/ledgerForRunner';
import { createServices } from '../../src/app/services';
import { PASSKEY, pmWorld, runnerOnce, runningTask } from './pmHelpers';
import { cli } from '../helpers/cli';

const agentId = { $prompt: 'agent_id' };

test('a task goes from coder to reviewer by itself: authenticate → get_my_task → save_context → create_handoff → the reviewer is launched, accepts and reports', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  try {
    const taskId = await runningTask(c, 'Login page', 'coder', 'web');
    const script: FakeScript = {
      steps: [],
      byAgent: {
        coder: {
          usage: { costUsd: 0.0421, inputTokens: 1200, outputTokens: 300 },
          steps: [
            logIn,
            { call: 'get_my_task', args: {} },
            {
              call: 'save_context',
              args: { task_id: { $result: [1, 'task.task_id'] }, progress: 'form done', next_steps: 'review it' },
            },
            {
              call: 'create_handoff',
              args: {
                task_id: { $result: [1, 'task.task_id'] },
                from_agent_id: 'coder',
                to_agent_id: 'reviewer',
                summary: 'Login form done; please review',
              },
            },
            { call: 'report_completed', args: { result: 'success', summary: 'handed over to the reviewer' } },
          ],
        },
        reviewer: {
          usage: { costUsd: 0.01, inputTokens: 400, outputTokens: 90 },
          steps: [
            logIn,
            { call: 'get_my_task', args: {} },
            { call: 'get_pending_handoffs', args: { agent_id: agentId } },
            {
              call: 'accept_handoff',
              args: { handoff_id: { $result: [2, 'handoffs.0.handoff_id'] }, agent_id: agentId },
            },
            { call: 'report_completed', args: { result: 'success', summary: 'reviewed: fine' } },
          ],
        },
      },
    };
    const env = fakes.env(script);
    const first = runnerOnce(repo, env);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(
      first.events.filter((e) => e.kind === 'launched').map((e) => (e.instance as { agentId: string }).agentId),
      ['coder'],
    );
    const [coderRun] = fakes.runs();
    assert.ok(!JSON.stringify(coderRun).includes(PASSKEY), 'no passkey anywhere in the launch');
    assert.ok(
      coderRun.cwd.includes(`${path.sep}worktrees${path.sep}`),
      `the coder ran in the task's worktree, not ${coderRun.cwd}`,
    );

    const context = await c.call<{ history: Array<{ progress: string | null }> }>('get_task_context', {
      task_id: taskId,
      include_history: true,
    });
    assert.deepEqual(
      context.history.map((h) => h.progress),
      ['form done', 'handed over to the reviewer'],
      'the context it saved, then its report',
    );
    assert.deepEqual(
      await c.call('should_start', { agent_id: 'reviewer', project_id: 'web' }),
      { should_start: true, ai_type: 'claude' },
      'the handoff gave the task to the reviewer',
    );

    const second = runnerOnce(repo, env);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(
      second.events.filter((e) => e.kind === 'launched').map((e) => (e.instance as { agentId: string }).agentId),
      ['reviewer'],
    );
    const task = await c.call<{ task: { status: string; assignee_id: string | null } }>('get_task', {
      task_id: taskId,
    });
    assert.equal(task.task.status, 'done');
    const handoffs = await c.call<{ handoffs: Array<{ status: string; accepted_by: string | null }> }>(
      'get_pending_handoffs',
      { agent_id: 'reviewer' },
    );
    assert.deepEqual(handoffs.handoffs, [], 'the handoff was accepted');

    const logs = await c.call<{
      logs: Array<{
        agentId: string;
        executionId: string;
        status: string;
        exitCode: number | null;
        costUsd: number | null;
        taskId: string | null;
      }>;
    }>('list_execution_logs', { task_id: taskId });
    const byAgent = Object.fromEntries(logs.logs.map((e) => [e.agentId, e]));
    assert.equal(logs.logs.length, 2, JSON.stringify(logs));
    assert.equal(byAgent.coder.status, 'completed');
    assert.equal(byAgent.coder.exitCode, 0);
    assert.equal(byAgent.coder.costUsd, 0.0421, 'the cost the client printed is on the execution log');
    assert.equal(byAgent.reviewer.costUsd, 0.01);
    assert.equal(byAgent.reviewer.taskId, taskId);
    // Each run worked in the task's worktree through a worker_command session, ended with the run.
    const sessions = await c.call<{
      sessions: Array<{
        agent: string;
        origin: string;
        status: string;
        sessionGroupId: string | null;
        exitCode: number | null;
      }>;
    }>('session_list', { taskId });
    assert.deepEqual(sessions.sessions.map((s) => [s.agent, s.origin, s.status, s.sessionGroupId, s.exitCode]).sort(), [
      ['coder', 'worker_command', 'completed', byAgent.coder.executionId, 0],
      ['reviewer', 'worker_command', 'completed', byAgent.reviewer.executionId, 0],
    ]);
  } finally {
    await c.close();
  }
});

test('an agent that crashes leaves an execution log with its exit code, frees its pair, and is not relaunched at once', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  try {
    const taskId = await runningTask(c, 'Crashy', 'coder', 'web');
    const env = fakes.env({ steps: [logIn, { call: 'get_my_task', args: {} }, { crash: true }] });
    const run = runnerOnce(repo, env);
    assert.equal(run.code, 0, run.stderr);
    const ended = run.events.find((e) => e.kind === 'ended') as { exit: { exitCode: number } } | undefined;
    assert.equal(ended?.exit.exitCode, 1);
    const logs = await c.call<{ logs: Array<{ status: string; exitCode: number | null; executionId: string }> }>(
      'list_execution_logs',
      { task_id: taskId },
    );
    assert.equal(logs.logs.length, 1);
    assert.equal(logs.logs[0].status, 'error');
    assert.equal(logs.logs[0].exitCode, 1);
    const { log: detail } = await c.call<{ log: { error: string | null; logFilePath: string | null } }>(
      'get_execution_log',
      { execution_id: logs.logs[0].executionId },
    );
    assert.match(detail.error ?? '', /exited with code 1/);
    assert.ok(detail.logFilePath && fs.existsSync(detail.logFilePath), 'its log file is kept');
    assert.deepEqual(
      await c.call('should_start', { agent_id: 'coder', project_id: 'web' }),
      { should_start: true, ai_type: 'claude' },
      'the crashed session no longer holds the pair',
    );
    // The worktree's session ended with the run, saying why: the task no longer counts as worked on
    // (it would hold every task whose write scope overlaps), and stays in progress for the next launch.
    const sessions = await c.call<{
      sessions: Array<{
        origin: string;
        status: string;
        sessionGroupId: string | null;
        exitCode: number | null;
        error: unknown;
      }>;
    }>('session_list', { taskId });
    assert.deepEqual(
      sessions.sessions.map((s) => ({
        origin: s.origin,
        status: s.status,
        group: s.sessionGroupId,
        exitCode: s.exitCode,
        error: s.error,
      })),
      [
        {
          origin: 'worker_command',
          status: 'failed',
          group: logs.logs[0].executionId,
          exitCode: 1,
          error: { type: 'crash', message: 'its run exited with code 1' },
        },
      ],
    );
    assert.equal(
      (await c.call<{ task: { status: string } }>('get_task', { task_id: taskId })).task.status,
      'in_progress',
    );
  } finally {
    await c.close();
  }
});

test('the runner’s one-read decisions for every pair are exactly should_start’s, pair by pair', async () => {
  const { repo, c } = await pmWorld();
  // In this process too, the ledger the suite runs on (PostgreSQL under npm run test:pg).
  const saved = { ...process.env };
  Object.assign(process.env, ledgerEnv(repo));
  const services = await createServices({ workspace: repo, dbPath: process.env.AGENT_LEDGER_DB });
  try {
    await runningTask(c, 'Web work', 'coder', 'web');
    await runningTask(c, 'Api work', 'coder', 'api');
    await runningTask(c, 'Review', 'reviewer', 'web');
    // coder holds a session in web: rule 2 says no there, while api still says yes.
    await c.call('authenticate', { agent_id: 'coder', passkey: PASSKEY, project_id: 'web' });
    const ledger = new LedgerForRunner({
      engine: services.engine,
      projects: services.projects,
      runtime: services.runtime,
      agents: services.agents,
      runnerId: 'test',
    });
    const pairs = ['coder', 'reviewer', 'nobody'].flatMap((agentId) =>
      ['prj-1', 'prj-2', 'prj-99'].map((projectId) => ({ agentId, projectId })),
    );
    const batched = await ledger.startDecisions(pairs);
    const single = await Promise.all(pairs.map((p) => ledger.shouldStart(p.agentId, p.projectId)));
    assert.deepEqual(
      batched.map(({ shouldStart, aiType }) => ({ shouldStart, ...(aiType ? { aiType } : {}) })),
      single,
    );
    // And why a pair does not start, for the runner's line: nothing queued, or a session of it runs.
    assert.deepEqual(
      pairs.flatMap((p, i) => (batched[i].idle ? [[p.agentId, p.projectId, batched[i].idle?.reason]] : [])),
      [
        ['coder', 'prj-1', 'running'],
        ['reviewer', 'prj-2', 'noTask'],
      ],
    );
    assert.deepEqual(
      pairs.filter((_, i) => batched[i].shouldStart),
      [
        { agentId: 'coder', projectId: 'prj-2' },
        { agentId: 'reviewer', projectId: 'prj-1' },
      ],
    );
  } finally {
    await services.dispose();
    for (const key of Object.keys(process.env)) if (saved[key] === undefined) delete process.env[key];
    Object.assign(process.env, saved);
    await c.close();
  }
});

test('an agent that reports and then exits: its run ends when its process does, and task get shows what it saved', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  try {
    const taskId = await runningTask(c, 'Session store timeout', 'coder', 'web');
    const env = fakes.env({
      steps: [
        logIn,
        { call: 'get_my_task', args: {} },
        {
          call: 'save_context',
          args: {
            task_id: { $result: [1, 'task.task_id'] },
            agent_id: agentId,
            progress: 'timeout raised to 30 s',
            findings: 'the store pings every 5 s',
            next_steps: 'load test it',
          },
        },
        { call: 'report_completed', args: { result: 'success', summary: 'timeout raised' } },
        { sleep: 1500 }, // the client winds down after its report
      ],
    });
    const run = runnerOnce(repo, env);
    assert.equal(run.code, 0, run.stderr);
    const logs = await c.call<{
      logs: Array<{ status: string; startedAt: string; completedAt: string; durationSeconds: number }>;
    }>('list_execution_logs', { task_id: taskId });
    assert.equal(logs.logs.length, 1);
    const [log] = logs.logs;
    assert.equal(log.status, 'completed');
    const span = (Date.parse(log.completedAt) - Date.parse(log.startedAt)) / 1000;
    assert.ok(
      Math.abs(span - log.durationSeconds) <= 0.002,
      `completedAt − startedAt = ${span} s, durationSeconds = ${log.durationSeconds} s: one run, one span`,
    );
    assert.ok(log.durationSeconds >= 1.5, 'the run lasts until its process ended, after the report');

    type Saved = { agent: string | null; progress: string | null; findings: string | null; nextSteps: string | null };
    const detail = await c.call<{ contexts: { total: number; newest: Saved[] } }>('task_get', { id: taskId });
    assert.equal(detail.contexts.total, 2, 'save_context, and report_completed with its summary');
    assert.deepEqual(
      detail.contexts.newest.map((x) => [x.agent, x.progress, x.findings, x.nextSteps]),
      [
        ['coder', 'timeout raised', null, null],
        ['coder', 'timeout raised to 30 s', 'the store pings every 5 s', 'load test it'],
      ],
    );
    const text = cli(['task', 'get', taskId, '--workspace', repo]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Context \(2 saved\)\n.* coder\n {4}progress: timeout raised\n/);
    assert.match(text.stdout, /findings: the store pings every 5 s\n {4}next: load test it/);
  } finally {
    await c.close();
  }
});
