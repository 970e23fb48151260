import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRunOutput } from '../../../../../src/core/runtime/launch/clients';

// Literal outputs of the real clients (shapes from their docs and sources, values made up).
const claudeJson = JSON.stringify({
  type: 'result',
  subtype: 'success',
  is_error: false,
  duration_ms: 1998,
  duration_api_ms: 1976,
  num_turns: 4,
  result: 'Done: task 12 created.',
  stop_reason: 'end_turn',
  session_id: '0e639165-79b1-4bd4-bb0f-4cb4c15115d4',
  total_cost_usd: 0.0079825,
  usage: {
    input_tokens: 3,
    cache_creation_input_tokens: 1200,
    cache_read_input_tokens: 15635,
    output_tokens: 6,
    server_tool_use: { web_search_requests: 0 },
    service_tier: 'standard',
  },
  permission_denials: [],
});

test('Claude Code --output-format json: cost, tokens, turns, session, error flag', () => {
  assert.deepEqual(parseRunOutput('claude-json', `${claudeJson}\n`), {
    inputTokens: 3,
    outputTokens: 6,
    cacheReadTokens: 15635,
    cacheWriteTokens: 1200,
    reasoningTokens: null,
    costUsd: 0.0079825,
    turns: 4,
    sessionId: '0e639165-79b1-4bd4-bb0f-4cb4c15115d4',
    isError: false,
    result: 'Done: task 12 created.',
  });
  const failed = parseRunOutput(
    'claude-json',
    '{"type":"result","subtype":"error_max_turns","is_error":true,"num_turns":30,"session_id":"s","total_cost_usd":1.25,"usage":{"input_tokens":10,"output_tokens":20}}',
  );
  assert.equal(failed?.isError, true);
  assert.equal(failed?.costUsd, 1.25);
  // stream-json: the last line is the result.
  const stream = [
    '{"type":"system","subtype":"init","session_id":"s"}',
    '{"type":"assistant","message":{}}',
    claudeJson,
  ].join('\n');
  assert.equal(parseRunOutput('claude-json', stream)?.costUsd, 0.0079825);
  assert.equal(parseRunOutput('claude-json', 'Error: not logged in\n'), null, 'a crash reports nothing, not zero');
});

test('Codex exec --json: tokens summed over turns, cached input split out, no cost', () => {
  const jsonl = [
    '{"type":"thread.started","thread_id":"0199a213-81c0-7800-8aa1-bbab2a035a53"}',
    '{"type":"turn.started"}',
    '{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"**Looking at the task**"}}',
    '{"type":"item.started","item":{"id":"item_1","type":"mcp_tool_call","server":"agent-ledger","tool":"task_create","arguments":{"title":"x"},"result":null,"error":null,"status":"in_progress"}}',
    '{"type":"item.completed","item":{"id":"item_1","type":"mcp_tool_call","server":"agent-ledger","tool":"task_create","arguments":{"title":"x"},"result":{"content":[],"structured_content":{"id":12}},"error":null,"status":"completed"}}',
    '{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"Created task 12."}}',
    '{"type":"turn.completed","usage":{"input_tokens":24763,"cached_input_tokens":24448,"output_tokens":122}}',
    '{"type":"turn.started"}',
    '{"type":"turn.completed","usage":{"input_tokens":1000,"cached_input_tokens":0,"output_tokens":78,"reasoning_output_tokens":40}}',
  ].join('\n');
  assert.deepEqual(parseRunOutput('codex-jsonl', jsonl), {
    inputTokens: 24763 + 1000 - 24448,
    outputTokens: 200,
    cacheReadTokens: 24448,
    cacheWriteTokens: null,
    reasoningTokens: 40,
    costUsd: null,
    turns: 2,
    sessionId: '0199a213-81c0-7800-8aa1-bbab2a035a53',
    isError: false,
    result: 'Created task 12.',
  });
  const failed = parseRunOutput(
    'codex-jsonl',
    '{"type":"thread.started","thread_id":"t"}\n{"type":"turn.failed","error":{"message":"stream disconnected"}}\n',
  );
  assert.equal(failed?.isError, true);
  assert.equal(failed?.inputTokens, null);
  assert.equal(failed?.costUsd, null);
});

test('Gemini CLI --output-format json: stats summed over models, thoughts counted as output, no cost', () => {
  const json = JSON.stringify(
    {
      session_id: 'c5a1f3e0',
      response: 'Created task 12.',
      stats: {
        models: {
          'gemini-2.5-pro': {
            api: { totalRequests: 2, totalErrors: 0, totalLatencyMs: 5053 },
            tokens: { prompt: 24939, candidates: 20, total: 25113, cached: 21263, thoughts: 154, tool: 0 },
          },
          'gemini-2.5-flash': {
            api: { totalRequests: 1, totalErrors: 0, totalLatencyMs: 800 },
            tokens: { prompt: 100, candidates: 10, total: 110, cached: 0, thoughts: 0, tool: 0 },
          },
        },
        tools: {
          totalCalls: 1,
          totalSuccess: 1,
          totalFail: 0,
          totalDurationMs: 40,
          decisions: { accept: 0, reject: 0, modify: 0, auto_accept: 1 },
          byName: {},
        },
        files: { totalLinesAdded: 0, totalLinesRemoved: 0 },
      },
    },
    null,
    2,
  );
  assert.deepEqual(parseRunOutput('gemini-json', `Loaded cached credentials.\n${json}\n`), {
    inputTokens: 24939 + 100 - 21263,
    outputTokens: 20 + 154 + 10,
    cacheReadTokens: 21263,
    cacheWriteTokens: null,
    reasoningTokens: 154,
    costUsd: null,
    turns: null,
    sessionId: 'c5a1f3e0',
    isError: false,
    result: 'Created task 12.',
  });
  const failed = parseRunOutput(
    'gemini-json',
    '{"response":null,"error":{"type":"FatalTurnLimitedError","message":"Reached max session turns","code":53}}',
  );
  assert.equal(failed?.isError, true);
  assert.equal(failed?.inputTokens, null);
  assert.equal(parseRunOutput('text', 'anything'), null);
});
