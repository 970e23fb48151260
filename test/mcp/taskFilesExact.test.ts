import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import { tempRepo, writeFiles } from '../helpers/tmp';

type Files = { added: string[]; modified: string[]; deleted: string[] };
type TaskGet = { filesChanged: Files; alsoChangedBy: { path: string; tasks: string[] }[] };
const paths = (f: Files) => [...f.added, ...f.modified, ...f.deleted].sort();

/** Exactness as agents see it: each client is its own server process, as two agents' are. */
describe('a task lists exactly its own files', () => {
  test("another agent's memory entry, agent file and pipeline document are not in a running task's files", async () => {
    const repo = tempRepo({ 'src/a.ts': 'a1\n', 'README.md': '# r\n' });
    const agent = await connect(repo);
    const other = await connect(repo);
    try {
      const { workflow_id } = await agent.call<{ workflow_id: string }>('start_workflow', {
        name: 'Edit',
        plan: [{ step: 'a', goal: 'a' }],
      });
      const { task_id } = await agent.call<{ task_id: string }>('start_task', {
        workflow_id,
        name: 'Edit a',
        goal: 'edit a',
        areas: ['src'],
      });
      writeFiles(repo, { 'src/a.ts': 'a2\n' });
      await other.call('memory_add', { id: 'runner', category: 'tooling', title: 'node:test' });
      writeFiles(repo, { '.agent-ledger/agents/docs.yaml': 'name: docs\ndescription: docs\n' });
      const init = await other.call<Record<string, unknown>>('pipeline_init', {
        arguments: 'Fix the typo in the README',
        current_branch: 'main',
      });
      await other.call('pipeline_init_with_context', {
        workspace: init.workspace,
        flags: init.flags,
        task_text: init.core_text,
        user_confirmation: { effort: 'S', use_current_branch: true },
      });
      // The agent's own entry, naming its task, is its work.
      await agent.call('memory_add', { id: 'choice', category: 'architecture', title: 'Kept a.ts', task_id });

      const done = await agent.call<{ files_changed: Files; verification: { scope_match: boolean } }>('complete_task', {
        task_id,
        status: 'success',
        outcome: { summary: 'edited a' },
      });
      assert.deepEqual(paths(done.files_changed), ['.agent-ledger/memory/architecture/choice.md', 'src/a.ts']);
      const got = await agent.call<TaskGet>('task_get', { id: task_id });
      assert.deepEqual(paths(got.filesChanged), ['.agent-ledger/memory/architecture/choice.md', 'src/a.ts']);
    } finally {
      await agent.close();
      await other.close();
    }
  });

  test('two tasks in one working tree: task_get and task:// mark each file also changed by the other', async () => {
    const repo = tempRepo({ 'src/a.ts': 'a1\n', 'docs/b.md': 'b1\n' });
    const first = await connect(repo);
    const second = await connect(repo);
    try {
      const start = async (c: typeof first, name: string, areas: string[]) => {
        const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', {
          name,
          plan: [{ step: name, goal: name }],
        });
        return (await c.call<{ task_id: string }>('start_task', { workflow_id, name, goal: name, areas })).task_id;
      };
      const one = await start(first, 'Code', ['src']);
      const two = await start(second, 'Docs', ['docs']);
      writeFiles(repo, { 'src/a.ts': 'a2\n', 'docs/b.md': 'b2\n' });
      await first.call('complete_task', { task_id: one, status: 'success', outcome: { summary: 'a' } });
      await second.call('complete_task', { task_id: two, status: 'success', outcome: { summary: 'b' } });

      const got = await first.call<TaskGet>('task_get', { id: one });
      assert.deepEqual(got.alsoChangedBy, [
        { path: 'docs/b.md', tasks: [two] },
        { path: 'src/a.ts', tasks: [two] },
      ]);
      const resource = await second.client.readResource({ uri: `task://${two.replace('task-', '')}` });
      const json = JSON.parse((resource.contents[0] as { text: string }).text) as TaskGet;
      assert.deepEqual(json.alsoChangedBy, [
        { path: 'docs/b.md', tasks: [one] },
        { path: 'src/a.ts', tasks: [one] },
      ]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
