import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';
import { PASSKEY, pmWorld, runningTask } from './pmHelpers';

/** The pm family's resources and prompts, through the real SDK client against dist/cli.js. */

async function readJson(
  c: { client: { readResource(p: { uri: string }): Promise<{ contents: unknown[] }> } },
  uri: string,
): Promise<Record<string, unknown>> {
  const r = await c.client.readResource({ uri });
  return JSON.parse((r.contents[0] as { text: string }).text) as Record<string, unknown>;
}

async function refused(p: Promise<unknown>): Promise<McpError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof McpError, String(e));
    return e;
  }
  assert.fail('expected a refusal');
}

test('project://, context://, handoff://, execution://, executions:// and the task:// and agent:// resources that serve both id shapes', async () => {
  const { c } = await pmWorld();
  try {
    const templates = (await c.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    for (const t of [
      'agent://{name}',
      'task://{id}',
      'project://{id}',
      'context://{taskId}',
      'handoff://{taskId}',
      'execution://{id}',
      'executions://{taskId}',
    ])
      assert.ok(templates.includes(t), t);

    const task = await runningTask(c, 'Resourceful', 'coder', 'web');
    const n = Number(task.replace('task-', ''));
    const auth = await c.call<{ session_token: string }>('authenticate', {
      agent_id: 'coder',
      passkey: PASSKEY,
      project_id: 'web',
    });
    await c.call('get_my_task', { session_token: auth.session_token });
    await c.call('save_context', { task_id: task, progress: 'started', agent_id: 'coder' });
    const h = await c.call<{ handoff: { handoff_id: string } }>('create_handoff', {
      task_id: task,
      from_agent_id: 'coder',
      to_agent_id: 'reviewer',
      summary: 'review please',
    });

    const project = await readJson(c, 'project://prj-1');
    assert.deepEqual(
      [project.name, project.agents, project.task_counts],
      ['web', ['coder', 'reviewer'], { in_progress: 1 }],
    );
    assert.equal((await readJson(c, 'project://web')).project_id, 'prj-1', 'by name too');
    const memory = await c.client.readResource({ uri: 'project://memory' });
    assert.equal(
      (memory.contents[0] as { mimeType: string }).mimeType,
      'text/markdown',
      'project://memory stays the Memory Bank',
    );

    for (const id of [task, String(n)]) {
      const ctx = await readJson(c, `context://${id}`);
      assert.deepEqual([ctx.task_id, (ctx.context as { progress: string }).progress], [task, 'started']);
      const handoff = await readJson(c, `handoff://${id}`);
      assert.equal((handoff.latest as { handoff_id: string }).handoff_id, h.handoff.handoff_id);
      const runs = await readJson(c, `executions://${id}`);
      assert.equal((runs.logs as unknown[]).length, 1);
      assert.equal((await readJson(c, `task://${id}`)).title, 'Resourceful', 'task:// takes both id shapes');
    }
    const execId = ((await readJson(c, `executions://${task}`)).logs as { executionId: string }[])[0].executionId;
    assert.equal((await readJson(c, `execution://${execId}`)).status, 'running');
    assert.equal((await readJson(c, `execution://${execId.replace('exec-', '')}`)).executionId, execId);
    assert.match(
      ((await c.client.readResource({ uri: 'agent://coder' })).contents[0] as { text: string }).text,
      /name: coder/,
    );

    const listed = (await c.client.listResources()).resources.map((r) => r.uri);
    assert.ok(
      listed.includes('project://prj-1') &&
        listed.includes('project://prj-2') &&
        listed.includes(`execution://${execId}`),
    );

    for (const uri of [
      'project://prj-9',
      'context://999',
      'handoff://task-999',
      'execution://exec-999',
      'executions://999',
    ]) {
      const e = await refused(c.client.readResource({ uri }));
      assert.equal(e.code, -32602, uri);
      assert.equal((e.data as { uri?: string }).uri, uri);
    }

    // Subscribed resources are notified when any process changes them.
    const updates: string[] = [];
    c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await c.client.subscribeResource({ uri: `context://${task}` });
    await c.call('save_context', { task_id: task, progress: 'more' });
    const deadline = Date.now() + 10_000;
    while (!updates.includes(`context://${task}`) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    assert.ok(updates.includes(`context://${task}`), `notified: ${updates.join(', ')}`);
  } finally {
    await c.close();
  }
});

test('prompts task_start, handoff_template and context_summary, served while the pm family is on', async () => {
  const { c } = await pmWorld();
  try {
    const { prompts } = await c.client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name).sort(), ['context_summary', 'handoff_template', 'task_start']);
    const ts = prompts.find((p) => p.name === 'task_start');
    assert.deepEqual(
      ts?.arguments?.map((a) => [a.name, a.required]),
      [
        ['task_id', true],
        ['agent_id', true],
      ],
    );

    const task = await runningTask(c, 'Prompted $(touch pwned)', 'coder', 'web');
    await c.call('save_context', { task_id: task, progress: 'half way', blockers: 'flaky test', agent_id: 'coder' });
    await c.call('create_handoff', {
      task_id: task,
      from_agent_id: 'reviewer',
      to_agent_id: 'coder',
      summary: 'please finish',
    });

    const start = await c.client.getPrompt({ name: 'task_start', arguments: { task_id: task, agent_id: 'coder' } });
    const text = (start.messages[0].content as { text: string }).text;
    assert.equal(start.messages[0].role, 'user');
    assert.match(text, /You are coder, starting task-\d+/);
    assert.match(text, /Prompted \$\(touch pwned\)/);
    assert.match(text, /packages\/web/);
    assert.match(text, /progress: half way/);
    assert.match(text, /please finish/);

    const tpl = await c.client.getPrompt({
      name: 'handoff_template',
      arguments: { task_id: task, from_agent_id: 'coder' },
    });
    const tplText = (tpl.messages[0].content as { text: string }).text;
    assert.match(tplText, /create_handoff/);
    assert.match(tplText, new RegExp(`task_id: "${task}"`));
    assert.match(tplText, /reviewer/);

    const sum = await c.client.getPrompt({ name: 'context_summary', arguments: { task_id: task } });
    const sumText = (sum.messages[0].content as { text: string }).text;
    assert.match(sumText, /Saved contexts \(1\)/);
    assert.match(sumText, /Handoffs \(1\)/);

    assert.equal(
      (await refused(c.client.getPrompt({ name: 'task_start', arguments: { task_id: task } }))).code,
      -32602,
      'a missing argument',
    );
    const unknownTask = await refused(c.client.getPrompt({ name: 'context_summary', arguments: { task_id: '999' } }));
    assert.equal(unknownTask.code, -32602);
    assert.equal((unknownTask.data as { reason: string }).reason, 'TaskNotFound');
    assert.equal((await refused(c.client.getPrompt({ name: 'nope', arguments: {} }))).code, -32602);
  } finally {
    await c.close();
  }
  const off = await connect(tempRepo(), []);
  try {
    assert.equal(off.client.getServerCapabilities()?.prompts, undefined, 'no prompts while pm is off');
  } finally {
    await off.close();
  }
});
