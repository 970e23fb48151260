// The scripted model endpoint on its own, with requests shaped as the real clients send them
// (recorded from Claude Code 2.1.332, Codex 0.169.0 and Gemini CLI 0.61.0): what the journey
// tests rely on when they drive the real CLIs, checked without them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replacementPatch } from '../helpers/scriptedModel/clientTools';
import { startScriptedModel } from '../helpers/scriptedModel/scriptedModel';
import { tempDir } from '../helpers/tmp';

async function post(url: string, body: unknown): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, `${url}: ${response.status}`);
  return response.text();
}

/** The `data:` objects of a server-sent event stream. */
function events(stream: string): Record<string, unknown>[] {
  return stream
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice('data: '.length)) as Record<string, unknown>);
}

const claudeTools = [
  { name: 'Bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } },
  { name: 'ToolSearch', input_schema: { type: 'object', properties: { query: { type: 'string' } } } },
];
const deferredList =
  'The following deferred tools are now available via ToolSearch. Their schemas are NOT loaded:\nWebFetch\nmcp__agent-ledger__task_list\n\n';

describe('scripted model endpoint', () => {
  test('Claude Code: a deferred MCP tool is searched for first, a retry gets the same answer, the tool_reference makes it callable', async () => {
    const model = await startScriptedModel([{ callTool: 'task_list', args: { status: 'open' } }, { say: 'done' }]);
    const url = `${model.url}/v1/messages?beta=true`;
    const first = {
      model: 'claude-x',
      stream: true,
      tools: claudeTools,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'system', content: deferredList },
      ],
    };
    const answer = events(await post(url, first));
    const block = answer.find((e) => e.type === 'content_block_start')?.content_block as Record<string, unknown>;
    assert.deepEqual([block.type, block.name], ['tool_use', 'ToolSearch']);
    const input = JSON.parse(
      String((answer.find((e) => e.type === 'content_block_delta')?.delta as Record<string, unknown>).partial_json),
    );
    assert.equal(input.query, 'select:mcp__agent-ledger__task_list');
    assert.equal(
      (answer.find((e) => e.type === 'message_delta')?.delta as Record<string, unknown>).stop_reason,
      'tool_use',
    );
    // The client retries the same request: same answer, the script does not move.
    assert.deepEqual(events(await post(url, first))[1], answer[1]);

    const loaded = {
      ...first,
      tools: [
        ...claudeTools,
        { name: 'mcp__agent-ledger__task_list', defer_loading: true, input_schema: { type: 'object' } },
      ],
      messages: [
        ...first.messages,
        { role: 'assistant', content: [{ type: 'tool_use', id: block.id, name: 'ToolSearch', input }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: block.id,
              content: [{ type: 'tool_reference', tool_name: 'mcp__agent-ledger__task_list' }],
            },
          ],
        },
      ],
    };
    const call = events(await post(url, loaded)).find((e) => e.type === 'content_block_start')?.content_block as Record<
      string,
      unknown
    >;
    assert.equal(call.name, 'mcp__agent-ledger__task_list');
    const done = {
      ...loaded,
      stream: false,
      messages: [
        ...loaded.messages,
        { role: 'assistant', content: [{ type: 'tool_use', id: call.id, name: call.name, input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '{"tasks":[]}' }] },
      ],
    };
    const final = JSON.parse(await post(url, done)) as {
      content: { type: string; text: string }[];
      stop_reason: string;
    };
    assert.deepEqual([final.content[0].text, final.stop_reason], ['done', 'end_turn']);
    assert.deepEqual(model.errors, []);
    assert.ok(model.finished);
    assert.equal(model.conversations().at(-1)?.lastResult('task_list')?.text, '{"tasks":[]}');
    // A side request (no tools): a short answer, the script untouched.
    assert.match(
      JSON.stringify(JSON.parse(await post(url, { model: 'haiku', messages: [{ role: 'user', content: 'Title?' }] }))),
      /Scripted run/,
    );
    await model.close();
  });

  test('Codex: tool_search_call for a deferred namespace, then a namespaced function call; apply_patch is free-form', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'one\ntwo\n');
    const model = await startScriptedModel([
      { callTool: 'task_list' },
      { editFile: file, oldText: 'two', newText: 'TWO' },
    ]);
    const url = `${model.url}/v1/responses`;
    const tools = [
      { type: 'function', name: 'exec_command', parameters: {} },
      { type: 'custom', name: 'apply_patch', format: { type: 'grammar' } },
      { type: 'tool_search', execution: 'client', parameters: {} },
    ];
    const input: Record<string, unknown>[] = [
      {
        type: 'message',
        role: 'developer',
        content: [
          {
            type: 'input_text',
            text: '<tools>\nDeferred tool namespaces:\n- mcp__agent_ledger: Agent Ledger\n</tools>',
          },
        ],
      },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
    ];
    const item = (stream: string) =>
      events(stream).find((e) => e.type === 'response.output_item.done')?.item as Record<string, unknown>;
    const search = item(await post(url, { model: 'gpt-5.5', stream: true, tools, input }));
    assert.deepEqual(
      [search.type, (search.arguments as Record<string, unknown>).query],
      ['tool_search_call', 'task_list'],
    );
    input.push(search, {
      type: 'tool_search_output',
      call_id: search.call_id,
      tools: [
        {
          type: 'namespace',
          name: 'mcp__agent_ledger',
          tools: [{ type: 'function', name: 'task_list', parameters: {} }],
        },
      ],
    });
    const call = item(await post(url, { model: 'gpt-5.5', stream: true, tools, input }));
    assert.deepEqual([call.type, call.name, call.namespace], ['function_call', 'task_list', 'mcp__agent_ledger']);
    input.push(call, { type: 'function_call_output', call_id: call.call_id, output: '{"tasks":[]}' });
    const patch = item(await post(url, { model: 'gpt-5.5', stream: true, tools, input }));
    assert.equal(patch.type, 'custom_tool_call');
    assert.equal(patch.input, `*** Begin Patch\n*** Update File: ${file}\n@@\n-two\n+TWO\n*** End Patch\n`);
    assert.deepEqual(model.errors, []);
    await model.close();
  });

  test("Gemini CLI: side requests get their schema's JSON (the user speaks next), the loop gets function calls", async () => {
    const model = await startScriptedModel([{ shell: 'git status' }]);
    const route = JSON.parse(
      await post(`${model.url}/v1beta/models/flash-lite:generateContent`, {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        generationConfig: {
          responseJsonSchema: {
            type: 'OBJECT',
            properties: { complexity_reasoning: { type: 'STRING' }, complexity_score: { type: 'INTEGER' } },
          },
        },
      }),
    ) as { candidates: { content: { parts: { text: string }[] } }[] };
    const score = JSON.parse(route.candidates[0].content.parts[0].text) as Record<string, unknown>;
    assert.equal(typeof score.complexity_score, 'number');
    const speaker = JSON.parse(
      await post(`${model.url}/v1beta/models/flash:generateContent`, {
        contents: [],
        generationConfig: {
          responseJsonSchema: {
            type: 'object',
            properties: { reasoning: { type: 'string' }, next_speaker: { type: 'string', enum: ['model', 'user'] } },
          },
        },
      }),
    ) as { candidates: { content: { parts: { text: string }[] } }[] };
    assert.equal(
      (JSON.parse(speaker.candidates[0].content.parts[0].text) as Record<string, unknown>).next_speaker,
      'user',
    );
    const loop = events(
      await post(`${model.url}/v1beta/models/pro:streamGenerateContent?alt=sse`, {
        contents: [{ role: 'user', parts: [{ text: 'go' }] }],
        tools: [{ functionDeclarations: [{ name: 'run_shell_command', parametersJsonSchema: { type: 'object' } }] }],
      }),
    );
    const part = (loop[0].candidates as { content: { parts: Record<string, unknown>[] } }[])[0].content.parts[0];
    assert.deepEqual(part.functionCall && { ...(part.functionCall as Record<string, unknown>), id: undefined }, {
      id: undefined,
      name: 'run_shell_command',
      args: { command: 'git status', description: 'Run the scripted command' },
    });
    assert.deepEqual(
      model.requests.map((r) => r.kind),
      ['side', 'side', 'main'],
    );
    await model.close();
  });

  test('a step that cannot be done ends the script with the reason, for the test to see', async () => {
    const model = await startScriptedModel([{ callTool: 'no_such_tool' }, { say: 'never' }]);
    const answer = JSON.parse(
      await post(`${model.url}/v1/messages`, {
        model: 'm',
        tools: claudeTools,
        messages: [{ role: 'user', content: 'go' }],
      }),
    ) as { content: { text: string }[] };
    assert.match(
      answer.content[0].text,
      /no_such_tool is not among the tools claude gave the model \(Bash, ToolSearch\)/,
    );
    assert.equal(model.errors.length, 1);
    await model.close();
  });

  test('Codex patches replace whole lines, across lines, and join lines', () => {
    const file = path.join(tempDir(), 'f.txt');
    fs.writeFileSync(file, 'alpha\nbeta gamma\ndelta\n');
    const body = (patch: string) => patch.split('\n').slice(3, -2);
    assert.deepEqual(body(replacementPatch(file, 'gamma', 'GAMMA')), ['-beta gamma', '+beta GAMMA']);
    assert.deepEqual(body(replacementPatch(file, 'alpha\nbeta', 'ab')), ['-alpha', '-beta gamma', '+ab gamma']);
    assert.deepEqual(body(replacementPatch(file, 'delta\n', '')), ['-delta']);
    assert.deepEqual(body(replacementPatch(file, 'gamma\n', ' ')), ['-beta gamma', '-delta', '+beta  delta']);
    assert.throws(() => replacementPatch(file, 'a\n', 'x'), /not found exactly once/);
  });
});
