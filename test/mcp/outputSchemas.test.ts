import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';
import { loadCatalog } from '../../src/mcp/catalog';
import { jsonSchema } from '../../src/mcp/listing/liveListing';
import { start } from './pipelineDriver';

/**
 * Every tool a default server lists answers what its listed outputSchema promises. The real SDK
 * client compiles the listed schemas on listTools() and checks each structuredContent of
 * callTool against them (it throws on a mismatch); each default tool is called here with a real
 * answer — several with null and non-null forms of the same field — and each answer is also
 * checked against zod's own schema of the contract, which the listing rewrites (compactSchema.ts).
 */
test('each default tool answers through the SDK client, which validates it against the listed output schema', async () => {
  const repo = tempRepo({ 'README.md': '# test\n', 'src/app.ts': 'export const app = 1;\n' });
  const c = await connect(repo);
  try {
    const { tools } = await c.client.listTools();
    const listed = new Map(
      tools.filter((t) => t.outputSchema).map((t) => [t.name, t.outputSchema as Record<string, unknown>]),
    );
    assert.ok(listed.size >= 26, `the default families list their output schemas (${listed.size})`);
    const ajv = new AjvJsonSchemaValidator();
    const contracts = new Map(
      (await loadCatalog()).tools
        .filter((t) => t.output)
        .map((t) => [t.name, ajv.getValidator(jsonSchema(t.output!, 'output'))]),
    );
    const listedChecks = new Map(
      [...listed].map(([name, schema]) => [name, ajv.getValidator(structuredClone(schema))]),
    );
    const called = new Set<string>();
    const call = async <T = Record<string, any>>(name: string, args: Record<string, unknown> = {}): Promise<T> => {
      const answer = await c.call<Record<string, unknown>>(name, args); // the SDK client validates here
      called.add(name);
      const byContract = contracts.get(name)!(answer);
      assert.ok(
        byContract.valid,
        `${name}: zod's schema of the contract refuses the answer: ${byContract.errorMessage}`,
      );
      // The check is live: the same answer without one of its required fields is refused by the listed schema.
      const required = (listed.get(name)!.required as string[] | undefined) ?? [];
      if (required.length > 0) {
        const { [required[0]]: _dropped, ...lacking } = answer;
        assert.equal(
          listedChecks.get(name)!(lacking).valid,
          false,
          `${name}: the listed schema refuses an answer without ${required[0]}`,
        );
      }
      return answer as T;
    };

    await call('mcp_info');
    await call('mcp_capabilities');

    // Tracking: a workflow, a task with a sub-task, its milestones, decision, issue and completion.
    const { workflow_id } = await call<{ workflow_id: string }>('start_workflow', {
      name: 'schemas',
      description: 'every tool once',
    });
    const parent = await call<{ task_id: string }>('start_task', {
      workflow_id,
      name: 'Parent',
      goal: 'Hold a sub-task',
    });
    const child = await call<{ task_id: string }>('start_task', {
      workflow_id,
      parent_task_id: parent.task_id,
      name: 'Child',
      goal: 'Be a sub-task',
      areas: ['src/**'],
    });
    await call('log_milestone', { task_id: child.task_id, message: 'half way', progress: 50, metadata: { step: 1 } });
    await call('log_decision', {
      task_id: child.task_id,
      category: 'architecture',
      question: 'Which store?',
      chosen: 'sql.js',
      reasoning: 'Embedded',
      options_considered: ['sql.js', 'pg'],
      trade_offs: 'none',
    });
    await call('log_issue', {
      task_id: child.task_id,
      type: 'other',
      description: 'A flaky test',
      resolution: 'Retried',
      requires_human_review: true,
    });
    fs.writeFileSync(path.join(repo, 'src', 'app.ts'), 'export const app = 2;\n');
    await call('complete_task', { task_id: child.task_id, status: 'success', outcome: { summary: 'Done' } });

    // Tasks: create, update (an assignee type set, then cleared), get with and without sub-tasks, list.
    const parentId = Number(parent.task_id.replace('task-', ''));
    const created = await call<{ id: number }>('task_create', {
      title: 'Backlog item',
      description: 'd',
      priority: 'high',
      type: 'bug',
      assignee: 'alice',
      assigneeType: 'human',
      labels: 'x,y',
    });
    await call('task_update', { id: created.id, assigneeType: 'ai', priority: 'low' });
    await call('task_update', { id: created.id, assignee: '' });
    const withSubtasks = await call<{ cost: { withSubtasks: unknown } }>('task_get', { id: parentId });
    assert.notEqual(
      withSubtasks.cost.withSubtasks,
      null,
      'a task with a sub-task: its cost with sub-tasks is an object',
    );
    const alone = await call<{ cost: { withSubtasks: unknown } }>('task_get', { id: created.id });
    assert.equal(alone.cost.withSubtasks, null, 'a task without sub-tasks: null');
    await call('task_list', { limit: 2 });
    await call('task_list', { status: 'done' });

    // Agents and the Memory Bank.
    await call('agent_list');
    await call('agent_get', { name: 'coder' });
    await call('memory_add', {
      id: 'test-framework',
      category: 'tooling',
      title: 'Test framework',
      summary: 'node:test',
      content: '# Why\nBuilt in.\n',
    });
    await call('memory_list');
    await call('memory_preview', { maxChars: 500 });

    // Workers and sessions.
    const worked = await call<{ id: number }>('task_create', { title: 'In a worktree' });
    await call('worker_command', { taskId: worked.id });
    const external = await call<{ id: number }>('task_create', { title: 'External session' });
    const session = await call<{ sessionId: number }>('session_start', { taskId: external.id, agent: 'coder' });
    await call('session_list', { taskId: external.id });
    await call('session_end', { sessionId: session.sessionId, exitCode: 0 });
    await call('session_list');
    await call('worktree_cleanup', { dryRun: true });
    await call('worktree_cleanup', { taskId: worked.id, force: true });

    // A pipeline: init (refused input, then accepted), the confirmation handshake, the first phase reported.
    await call('pipeline_init', { arguments: 'ab' });
    const first = await start({ ...c, call: call as LedgerClient['call'] }, 'Add a health endpoint to the API', {
      effort: 'M',
      use_current_branch: true,
    });
    const action = await call<{ phase: string; output_file: string }>('pipeline_next_action', {
      workspace: first.workspace,
    });
    fs.writeFileSync(path.join(repo, first.workspace, 'analysis.md'), '# Analysis\n');
    await call('pipeline_report_result', {
      workspace: first.workspace,
      phase: action.phase,
      tokens_used: 10,
      duration_ms: 5,
      model: 'sonnet',
    });
    await call('pipeline_next_action', { workspace: first.workspace, previous_action_complete: true });

    assert.deepEqual(
      [...listed.keys()].filter((name) => !called.has(name)),
      [],
      'every listed tool with an output schema was called',
    );
  } finally {
    await c.close();
  }
});
