import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';

/**
 * A NUL character (U+0000) in a stored string: PostgreSQL refuses it in text, SQLite keeps it. Both
 * stores answer the same coded ValidationError naming the field, and nothing is written
 * (`npm run test:pg` runs this on PostgreSQL).
 */
test('a NUL character is refused the same way on both stores, naming the field, and writes nothing', async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator', '--enable-pm']);
  try {
    const workflow = (await c.call<{ workflow_id: string }>('start_workflow', { name: 'nul' })).workflow_id;
    const seq = async (): Promise<number> => (await c.call<{ store: { seq: number } }>('mcp_info')).store.seq;
    const before = await seq();
    const calls: Array<[string, Record<string, unknown>, string]> = [
      ['task_create', { title: 'Fix\u0000login' }, 'title'],
      ['start_workflow', { name: 'a\u0000b' }, 'name'],
      ['start_task', { workflow_id: workflow, name: 'n', goal: 'g\u0000' }, 'goal'],
      [
        'complete_task',
        { task_id: '1', status: 'success', outcome: { summary: 'ok', achievements: ['x', 'y\u0000'] } },
        'outcome.achievements.1',
      ],
      ['memory_add', { id: 'm1', category: 'notes', title: 'T', content: 'body\u0000' }, 'content'],
      ['bb_set', { key: 'plan:a', value: { note: 'x\u0000' } }, 'value.note'],
      ['kg_insert', { triples: [{ subject: 's\u0000', predicate: 'is', object: 'o' }] }, 'triples.0.subject'],
      ['assign_task', { task_id: '1', agent_id: 'coder\u0000' }, 'agent_id'],
    ];
    for (const [tool, args, field] of calls) {
      const error = await c.fail(tool, args);
      assert.equal(error.reason, 'ValidationError', `${tool}: ${error.message}`);
      assert.equal(error.code, -32007);
      assert.equal(error.data?.field, field, tool);
      assert.match(
        error.message,
        new RegExp(
          `^invalid arguments for ${tool}: ${field.replace(/\./g, '\\.')}: must not contain the NUL character`,
        ),
      );
      assert.doesNotMatch(error.message, /INSERT|UPDATE|SELECT/, 'no SQL statement in the answer');
    }
    assert.equal(await seq(), before, 'no refused call wrote anything');
    const tasks = await c.call<{ tasks: unknown[] }>('task_list', {});
    assert.equal(tasks.tasks.length, 0);
  } finally {
    await c.close();
  }
});
