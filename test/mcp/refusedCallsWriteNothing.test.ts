/**
 * A refused call writes nothing. For every tool the server lists (every family on), calls that
 * are refused — bad input, and arguments of the right shape naming things that do not exist or
 * are in the wrong state — are made through the real SDK client, and the whole ledger is compared
 * before and after each: every table and row, the commit seq (an insert undone by a delete moves
 * it), and the files under `.agent-ledger/`. Then the refusals known to have written (child
 * runtimes that could not start, idempotency keys reserved and dropped, a contract-net call on an
 * ended task) are made on purpose.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { dumpDifference, ledgerDumper } from '../helpers/storeDump';
import { tempRepo } from '../helpers/tmp';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
};

/**
 * Arguments of the right shape: the required fields only, each the smallest value the schema
 * allows (`low`) or a value naming nothing that exists (`missing`: ids far past any made here).
 */
function argumentsOf(schema: Schema, how: 'low' | 'missing'): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const branch = schema.anyOf ?? schema.oneOf;
  if (branch) return argumentsOf(branch.find((b) => b.type !== 'null') ?? branch[0], how);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = argumentsOf(schema.properties?.[key] ?? {}, how);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => argumentsOf(schema.items ?? {}, how));
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      return how === 'low' ? min : Math.min(schema.maximum ?? 987_654, 987_654);
    }
    case 'boolean':
      return false;
    case 'string': {
      const text = how === 'low' ? 'x' : 'zz-no-such-thing-987654';
      if (schema.pattern && !new RegExp(schema.pattern).test(text)) return how === 'low' ? 'a' : 'zz987654';
      return text.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? text.length);
    }
    default:
      return 'x';
  }
}

/** Refusals that wrote before: each names the state or input that makes it refused. */
function knownRefusals(repo: string, doneTask: string): Record<string, Record<string, unknown>[]> {
  return {
    child_create: [
      { command: '/bin/sh', args: ['-c', 'true'], child_id: 'never-0', idempotency_key: 'k-child-0' },
      { command: process.execPath, env: { LD_PRELOAD: '/tmp/x.so' }, idempotency_key: 'k-child-00' },
      { command: '/no/such/program', child_id: 'never-1' },
      { command: '/no/such/program', child_id: 'never-2', idempotency_key: 'k-child-1' },
      { command: 'no-such-program-on-path', idempotency_key: 'k-child-2' },
      { command: process.execPath, child_id: 'never-3', cwd: 'no/such/folder', idempotency_key: 'k-child-3' },
      { command: process.execPath, child_id: 'never-4', cwd: path.dirname(repo) },
    ],
    child_spawn_codex: [
      { child_id: 'never-5', prompt: 'hello' },
      { child_id: 'never-6', prompt: 'hello', idempotency_key: 'k-codex-1' },
      { child_id: 'never-7', prompt: 'hello', cwd: 'no/such/folder', idempotency_key: 'k-codex-2' },
    ],
    child_batch_create: [
      {
        entries: [
          { child_id: 'never-8', prompt: 'a', idempotency_key: 'k-batch-1' },
          { child_id: 'never-9', prompt: 'b', idempotency_key: 'k-batch-2' },
        ],
      },
    ],
    cnp_announce: [
      { task_id: doneTask, idempotency_key: 'k-cnp-1' },
      { task_id: 'task-987654', idempotency_key: 'k-cnp-2' },
    ],
    start_task: [{ task_id: doneTask, name: 'again', goal: 'again' }],
    complete_task: [{ task_id: doneTask, status: 'success', outcome: { summary: 'twice' } }],
  };
}

async function callRefused(
  c: LedgerClient,
  name: string,
  args: Record<string, unknown>,
): Promise<{ refused: boolean; text: string }> {
  try {
    const result = await c.client.callTool({ name, arguments: args });
    const text = (result.content as { text?: string }[])[0]?.text ?? '';
    return { refused: result.isError === true, text };
  } catch (err) {
    // A protocol error (the arguments did not fit the method) is a refusal too.
    return { refused: true, text: String(err) };
  }
}

test('every tool: a refused call writes nothing (no row, no commit, no file under .agent-ledger/)', async () => {
  const repo = tempRepo({ 'README.md': '# app\n', 'src/a.ts': 'export {};\n' });
  // PATH without any agent CLI: child_spawn_codex cannot find codex. This node is an allowed program.
  const c = await connect(repo, [
    '--enable-pm',
    '--enable-orchestrator',
    '--child-program',
    process.execPath,
    '--child-program',
    '/no/such/program',
    // Every tool listed, the unlisted twins, deprecated and runner tools included.
    '--list-deprecated',
    '--list-runner-tools',
  ]);
  let dumper: Awaited<ReturnType<typeof ledgerDumper>> | undefined;
  try {
    // Some state to be in: agents written, a workflow with a done task and an open one, a project.
    await c.call('agent_list');
    const wf = await c.call<{ workflow_id: number }>('start_workflow', { name: 'wf' });
    const done = await c.call<{ task_id: number }>('start_task', { workflow_id: wf.workflow_id, name: 'd', goal: 'g' });
    await c.call('complete_task', { task_id: done.task_id, status: 'success', outcome: { summary: 'done' } });
    await c.call('task_create', { title: 'open one' });
    await c.call('memory_add', { id: 'use-zod', category: 'decisions', title: 'Use zod', content: 'at the edge' });
    const doneTask = String(done.task_id);
    dumper = await ledgerDumper(repo);

    const tools = (await c.client.listTools()).tools;
    // 81 listed with every family on, + 3 deprecated + 3 of the runner's; the agent PM's four twins of
    // task_get, task_list, agent_list and task_update are listed only while the tasks family is off.
    assert.ok(tools.length >= 87, `every family is on (${tools.length} tools)`);
    const known = knownRefusals(repo, doneTask);
    const wrote: string[] = [];
    const checked = new Map<string, number>();
    for (const tool of tools) {
      const schema = tool.inputSchema as Schema;
      const calls: Record<string, unknown>[] = [
        { zz_unknown_field: 1 },
        argumentsOf(schema, 'low') as Record<string, unknown>,
        argumentsOf(schema, 'missing') as Record<string, unknown>,
        ...(known[tool.name] ?? []),
      ];
      for (const args of calls) {
        const before = await dumper.dump();
        const { refused, text } = await callRefused(c, tool.name, args);
        if (!refused) continue;
        checked.set(tool.name, (checked.get(tool.name) ?? 0) + 1);
        const diff = dumpDifference(before, await dumper.dump());
        if (diff.length > 0)
          wrote.push(
            `${tool.name} ${JSON.stringify(args)} refused (${text.slice(0, 160)}) but wrote: ${diff.join('; ')}`,
          );
      }
    }
    assert.equal(wrote.length, 0, wrote.join('\n'));
    const unchecked = tools.map((t) => t.name).filter((n) => !checked.has(n));
    assert.deepEqual(unchecked, [], 'every tool was refused at least once');
    for (const [name, calls] of Object.entries(known))
      assert.ok((checked.get(name) ?? 0) >= calls.length + 1, `${name}: every known refusal was refused`);
  } finally {
    await dumper?.close();
    await c.close();
  }
});
