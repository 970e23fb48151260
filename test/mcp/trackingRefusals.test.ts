import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';
import { testStore } from '../helpers/testLedger';

/** Every refusal is an isError result with a code and a message saying what is accepted, and writes nothing. */
describe('refused calls', () => {
  let repo: string;
  let c: LedgerClient;
  let workflowId: string;
  let taskId: string;
  let doneTaskId: string;

  before(async () => {
    repo = tempRepo();
    c = await connect(repo);
    workflowId = (await c.call<{ workflow_id: string }>('start_workflow', { name: 'refusals' })).workflow_id;
    taskId = (await c.call<{ task_id: string }>('start_task', { workflow_id: workflowId, name: 'running', goal: 'g' }))
      .task_id;
    doneTaskId = (
      await c.call<{ task_id: string }>('start_task', { workflow_id: workflowId, name: 'finished', goal: 'g' })
    ).task_id;
    await c.call('complete_task', { task_id: doneTaskId, status: 'success', outcome: { summary: 'ok' } });
  });
  after(() => c.close());

  // What has been written: the journal's size (embedded), or the commit seq (PostgreSQL: no journal file).
  const journalSize = async (): Promise<number> =>
    testStore === 'postgres'
      ? (await c.call<{ store: { seq: number } }>('mcp_info')).store.seq
      : fs.statSync(path.join(repo, '.agent-ledger', 'ledger.journal')).size;

  async function refused(name: string, args: Record<string, unknown>, code: number, pattern: RegExp): Promise<void> {
    const before = await journalSize();
    const error = await c.fail(name, args);
    assert.equal(error.code, code, `${name}: ${error.message}`);
    assert.match(error.message, pattern);
    assert.equal(await journalSize(), before, `${name} refused but wrote to the journal`);
  }

  test('an error result reads as prose first (the reason and code), then its JSON; never structured content', async () => {
    const result = await c.client.callTool({ name: 'task_get', arguments: { id: 99999 } });
    const texts = (result.content as { type: string; text: string }[]).map((item) => item.text);
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent, undefined);
    assert.match(texts[0], /^TaskNotFound \(-32001\): Task task-99999 not found/);
    // Gemini CLI reads a first text item that parses as JSON as structured content: this one must not.
    assert.throws(() => JSON.parse(texts[0]) as unknown);
    assert.deepEqual(
      (JSON.parse(texts[1]) as { error: { reason: string; code: number } }).error.reason,
      'TaskNotFound',
    );
  });

  test('unknown ids: task -32001, workflow -32009', async () => {
    await refused('start_task', { workflow_id: 'wf-999', name: 'x', goal: 'g' }, -32009, /Workflow wf-999 not found/);
    await refused(
      'log_decision',
      { task_id: 'task-999', category: 'other', question: 'q', chosen: 'c', reasoning: 'r' },
      -32001,
      /Task task-999 not found/,
    );
    await refused(
      'log_issue',
      { task_id: 'task-999', type: 'other', description: 'd', resolution: 'r' },
      -32001,
      /not found/,
    );
    await refused('log_milestone', { task_id: 'task-999', message: 'm' }, -32001, /not found/);
    await refused(
      'complete_task',
      { task_id: 'task-999', status: 'success', outcome: { summary: 's' } },
      -32001,
      /not found/,
    );
    await refused(
      'start_task',
      { workflow_id: workflowId, parent_task_id: 'task-999', name: 'x', goal: 'g' },
      -32001,
      /not found/,
    );
  });

  test('malformed ids say which shape is accepted', async () => {
    await refused(
      'log_milestone',
      { task_id: 'banana', message: 'm' },
      -32007,
      /"banana" is not a task id: use the id a tool returned, like "task-12"/,
    );
    await refused('start_task', { workflow_id: 'task-1', name: 'x', goal: 'g' }, -32007, /not a workflow id/);
  });

  test('wrong state: completing twice, logging on a finished task, a sub-task under a finished parent', async () => {
    await refused(
      'complete_task',
      { task_id: doneTaskId, status: 'success', outcome: { summary: 's' } },
      -32004,
      /already done.*completed once/,
    );
    await refused(
      'log_decision',
      { task_id: doneTaskId, category: 'other', question: 'q', chosen: 'c', reasoning: 'r' },
      -32004,
      /cannot log a decision on task-\d+: it is already done/,
    );
    await refused(
      'log_issue',
      { task_id: doneTaskId, type: 'other', description: 'd', resolution: 'r' },
      -32004,
      /already done/,
    );
    await refused('log_milestone', { task_id: doneTaskId, message: 'm' }, -32004, /already done/);
    await refused(
      'start_task',
      { workflow_id: workflowId, parent_task_id: doneTaskId, name: 'x', goal: 'g' },
      -32004,
      /still running/,
    );
  });

  test('a parent from another workflow is refused', async () => {
    const other = (await c.call<{ workflow_id: string }>('start_workflow', { name: 'other' })).workflow_id;
    await refused(
      'start_task',
      { workflow_id: other, parent_task_id: taskId, name: 'x', goal: 'g' },
      -32007,
      /belongs to wf-\d+, not wf-\d+/,
    );
  });

  test('bad enums list what is accepted', async () => {
    await refused(
      'complete_task',
      { task_id: taskId, status: 'done', outcome: { summary: 's' } },
      -32007,
      /status: expected one of "success" \| "partial_success" \| "failed" \(got "done"\)/,
    );
    await refused(
      'log_decision',
      { task_id: taskId, category: 'library', question: 'q', chosen: 'c', reasoning: 'r' },
      -32007,
      /category: expected one of "architecture" \| "library_choice"/,
    );
    await refused(
      'log_issue',
      { task_id: taskId, type: 'bug', description: 'd', resolution: 'r' },
      -32007,
      /type: expected one of "documentation_gap"/,
    );
    await refused(
      'complete_task',
      { task_id: taskId, status: 'success', outcome: { summary: 's' }, metadata: { tests_status: 'green' } },
      -32007,
      /metadata\.tests_status: expected one of "passed" \| "failed" \| "not_run"/,
    );
  });

  test('out-of-range and wrongly typed values', async () => {
    await refused(
      'log_milestone',
      { task_id: taskId, message: 'm', progress: 101 },
      -32007,
      /progress: must be ≤ 100 \(got 101\)/,
    );
    await refused('log_milestone', { task_id: taskId, message: 'm', progress: -1 }, -32007, /progress: must be ≥ 0/);
    await refused(
      'log_milestone',
      { task_id: taskId, message: 'm', progress: '50' },
      -32007,
      /progress: expected number \(got "50"\)/,
    );
    await refused(
      'log_issue',
      { task_id: taskId, type: 'other', description: 'd', resolution: 'r', requires_human_review: 'yes' },
      -32007,
      /requires_human_review: expected boolean/,
    );
  });

  test('missing required fields and unknown fields', async () => {
    await refused('start_workflow', {}, -32007, /name: is required/);
    await refused('start_task', { workflow_id: workflowId, name: 'x' }, -32007, /goal: is required/);
    await refused('start_task', { workflow_id: workflowId, name: '', goal: 'g' }, -32007, /name: must not be empty/);
    await refused('complete_task', { task_id: taskId, status: 'success' }, -32007, /outcome: is required/);
    await refused(
      'complete_task',
      { task_id: taskId, status: 'success', outcome: {} },
      -32007,
      /outcome\.summary: is required/,
    );
    await refused(
      'log_decision',
      { taskId, category: 'other', question: 'q', chosen: 'c', reasoning: 'r' },
      -32007,
      /unknown field "taskId" \(accepted: task_id, category/,
    );
  });

  test('an unknown tool is a protocol error -32602 (as the MCP specification lists it), naming the enabled ones', async () => {
    await assert.rejects(c.client.callTool({ name: 'delete_everything', arguments: {} }), (err: McpError) => {
      assert.equal(err.code, ErrorCode.InvalidParams);
      assert.match(
        err.message,
        /unknown tool "delete_everything"; enabled tools: mcp_info, mcp_capabilities, start_workflow/,
      );
      assert.deepEqual((err.data as { tool: string }).tool, 'delete_everything');
      return true;
    });
  });

  test('the server is still healthy after every refusal', async () => {
    const ok = await c.call<{ milestone_id: number }>('log_milestone', {
      task_id: taskId,
      message: 'still alive',
      progress: 10,
    });
    assert.ok(ok.milestone_id > 0);
  });
});
