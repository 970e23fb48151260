import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { cliJson } from '../helpers/cli';
import { ledgerEnv } from '../helpers/testLedger';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { PASSKEY, pmWorld } from './pmHelpers';
import type * as Domain from '../../src/vscode/ledger/domainEntry';

/** The domain bundle the extension loads (dist/ledger.js): the Board's Cancel runs in it. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const domain = (): typeof Domain => require(path.resolve(__dirname, '../../dist/ledger.js')) as typeof Domain;

/**
 * Whatever ends a task, the same reactions follow (core/tasks/taskLifecycle.ts, subscribed once in
 * the composition root): here, the task's awarded contract-net call completes. Each way a task can
 * end is walked on a task of its own with an awarded call — the MCP tools of three families, the
 * editor's Board (through the domain bundle the extension loads) and the CLI — and each call must
 * be completed, not left `awarded` forever.
 */
test('every way of ending a task completes its awarded contract-net call', async () => {
  const { repo, c: pm } = await pmWorld();
  await pm.close();
  const c = await connect(repo, ['--enable-pm', '--enable-orchestrator']);
  let area = 0;
  /** An awarded call on the task (to coder, who bids alone), over a write scope no other task has. */
  const awarded = async (taskId: number): Promise<string> => {
    const call = await c.call<{ call_id: string; status: string; awarded_agent_id: string }>('cnp_announce', {
      task_id: `task-${taskId}`,
      writeScope: [`area${++area}/**`],
      auto_bid: false,
      manual_bids: [{ agent_id: 'coder', cost: 1 }],
    });
    assert.deepEqual([call.status, call.awarded_agent_id], ['awarded', 'coder']);
    return call.call_id;
  };
  const created = async (title: string): Promise<number> => (await c.call<{ id: number }>('task_create', { title })).id;
  const completedCalls = async (): Promise<string[]> => {
    const events = await c.call<{ events: { kind: string; data: { call_id?: string } }[] }>('events_subscribe', {
      kinds: ['cnp_call_completed'],
      wait_ms: 0,
      limit: 500,
    });
    return events.events.map((e) => e.data.call_id!).filter(Boolean);
  };
  const ended: Record<string, string> = {};
  try {
    // task_update: a cancel.
    const cancelled = await created('cancelled with task_update');
    ended.task_update = await awarded(cancelled);
    await c.call('task_update', { id: cancelled, status: 'cancelled' });

    // complete_task: a tracked task.
    const wf = await c.call<{ workflow_id: string }>('start_workflow', { name: 'ending' });
    const tracked = await created('completed with complete_task');
    ended.complete_task = await awarded(tracked);
    await c.call('start_task', { task_id: tracked, workflow_id: wf.workflow_id, name: 'tracked', goal: 'end it' });
    await c.call('complete_task', { task_id: tracked, status: 'success', outcome: { summary: 'done' } });

    // update_task_status: the agent PM's status change.
    const moved = await created('done with update_task_status');
    ended.update_task_status = await awarded(moved);
    await c.call('update_task_status', { task_id: `task-${moved}`, status: 'done' });

    // report_completed: an agent the runner launched reports (the runner's way of ending a task).
    const reported = await created('reported with report_completed');
    ended.report_completed = await awarded(reported);
    await c.call('assign_task', { task_id: reported, assignee_id: 'coder', project_id: 'web' });
    await c.call('update_task_status', { task_id: `task-${reported}`, status: 'in_progress' });
    const login = await c.call<{ session_token: string }>('authenticate', {
      agent_id: 'coder',
      passkey: PASSKEY,
      project_id: 'web',
    });
    const mine = await c.call<{ task: { task_id: string } }>('get_my_task', { session_token: login.session_token });
    assert.equal(mine.task.task_id, `task-${reported}`);
    await c.call('report_completed', { session_token: login.session_token, result: 'success' });

    // session_end: a worker session that merged settles its task as done.
    const worked = await created('done when its session ended');
    ended.session_end = await awarded(worked);
    const session = await c.call<{ sessionId: number }>('session_start', { taskId: worked, agent: 'coder' });
    const end = await c.call<{ taskStatus?: string }>('session_end', {
      sessionId: session.sessionId,
      exitCode: 0,
      dodResult: 'merged',
    });
    assert.equal(end.taskStatus, 'done');

    // The Board's Cancel: the extension's own call, through the domain bundle it loads.
    const board = await created('cancelled on the Board');
    ended.board = await awarded(board);
    const env = ledgerEnv(repo);
    const services = await domain().createServices({
      workspace: repo,
      dbPath: env.AGENT_LEDGER_DB,
      dbPassword: env.AGENT_LEDGER_DB_PASSWORD,
    });
    try {
      await services.tasks.update({ id: board, status: 'cancelled' });
    } finally {
      await services.dispose();
    }

    // The CLI: `agent-ledger task update N --status cancelled`.
    const typed = await created('cancelled from a terminal');
    ended.cli = await awarded(typed);
    cliJson(['task', 'update', String(typed), '--status', 'cancelled', '--workspace', repo]);

    const completed = await completedCalls();
    for (const [path, callId] of Object.entries(ended))
      assert.ok(completed.includes(callId), `${path}: the task's awarded call is completed`);
    assert.equal(Object.keys(ended).length, 7);
  } finally {
    await c.close();
  }
});

/** The reaction runs once per end: a task cancelled again, or reopened and cancelled, adds nothing twice. */
test('a task that is already ended does not end again', async () => {
  const { repo, c: pm } = await pmWorld();
  await pm.close();
  const c: LedgerClient = await connect(repo, ['--enable-orchestrator']);
  try {
    const t = (await c.call<{ id: number }>('task_create', { title: 'twice' })).id;
    await c.call('cnp_announce', {
      task_id: `task-${t}`,
      writeScope: ['twice/**'],
      auto_bid: false,
      manual_bids: [{ agent_id: 'coder', cost: 1 }],
    });
    await c.call('task_update', { id: t, status: 'cancelled' });
    await c.call('task_update', { id: t, title: 'still cancelled' });
    const events = await c.call<{ events: unknown[] }>('events_subscribe', {
      kinds: ['cnp_call_completed'],
      wait_ms: 0,
    });
    assert.equal(events.events.length, 1);
  } finally {
    await c.close();
  }
});
