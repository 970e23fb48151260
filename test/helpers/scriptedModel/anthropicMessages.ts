/**
 * The Anthropic Messages API as Claude Code speaks it (`ANTHROPIC_BASE_URL`): `POST /v1/messages`
 * streamed as server-sent events (message_start, content_block_start/delta/stop, message_delta,
 * message_stop), `tool_use` blocks answered by `tool_result` blocks in the next request, and
 * `POST /v1/messages/count_tokens`.
 *
 * Claude Code sends the model its MCP tools (and some of its own) as names only, in a text of
 * the conversation, and the model loads a tool's schema with the ToolSearch tool
 * (`select:<name>`): from the next request on, that tool is in `tools` with `defer_loading`, and
 * the search's `tool_result` holds a `tool_reference` to it, which is what shows it to the model
 * (the API's tool-search semantics). The planner in clientTools.ts searches first when a step
 * calls a tool that is only named.
 */
import type { Entry, ToolInfo } from './conversation';
import { Conversation } from './conversation';
import type { ModelTurn } from './script';
import type { DialectReply, ModelRequest } from './wire';
import { estimateTokens, jsonReply, sseReply } from './wire';

type Block = Record<string, unknown> & { type?: string };

function blocks(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as Block[]) : [];
}

function textOf(content: unknown): string {
  return blocks(content)
    .map((b) =>
      b.type === 'text'
        ? String(b.text ?? '')
        : b.type === 'tool_reference'
          ? `<tool_reference ${String(b.tool_name)}>`
          : '',
    )
    .filter((t) => t !== '')
    .join('\n');
}

/**
 * Names Claude Code told the model about without their schema: the lines after its "deferred
 * tools … available via ToolSearch" sentence (in the system prompt, or in a later reminder when a
 * server connected during the run), plus any tool sent with `defer_loading`.
 */
export function deferredToolNames(texts: string[], tools: Block[]): string[] {
  const names = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(/deferred tools[^\n]*ToolSearch[^\n]*\n([\s\S]*?)(?:\n\s*\n|$)/g)) {
      for (const line of match[1].split('\n')) {
        const name = line.trim();
        if (/^[A-Za-z0-9_.:-]+$/.test(name)) names.add(name);
      }
    }
  }
  for (const tool of tools)
    if (tool.defer_loading === true && tool.name !== 'DeferredToolPlaceholder') names.add(String(tool.name));
  return [...names];
}

export function anthropicConversation(body: Record<string, unknown>): Conversation {
  const entries: Entry[] = [];
  const system = textOf(body.system);
  if (system) entries.push({ kind: 'text', role: 'system', text: system });
  let modelTurns = 0;
  for (const message of (body.messages ?? []) as { role: string; content: unknown }[]) {
    const role = message.role === 'assistant' ? 'assistant' : message.role === 'system' ? 'system' : 'user';
    if (role === 'assistant') modelTurns++;
    for (const block of blocks(message.content)) {
      if (block.type === 'text') entries.push({ kind: 'text', role, text: String(block.text ?? '') });
      else if (block.type === 'tool_use')
        entries.push({ kind: 'call', call: { id: String(block.id), name: String(block.name), args: block.input } });
      else if (block.type === 'tool_result') {
        entries.push({
          kind: 'result',
          result: {
            id: String(block.tool_use_id),
            name: '',
            text: textOf(block.content),
            isError: block.is_error === true,
            raw: block,
          },
        });
      }
    }
  }
  const sent = (body.tools ?? []) as Block[];
  // A deferred tool is shown to the model once a tool result referenced it (ToolSearch's answer).
  const referenced = new Set(
    entries.flatMap((e) =>
      e.kind === 'result'
        ? blocks((e.result.raw as Block).content)
            .filter((b) => b.type === 'tool_reference')
            .map((b) => String(b.tool_name))
        : [],
    ),
  );
  const tools: ToolInfo[] = sent
    .filter((t) => (t.defer_loading !== true || referenced.has(String(t.name))) && t.input_schema !== undefined)
    .map((t) => ({ name: String(t.name), description: String(t.description ?? ''), schema: t.input_schema }));
  const texts = entries.flatMap((e) => (e.kind === 'text' ? [e.text] : []));
  const loaded = new Set(tools.map((t) => t.name));
  const deferred = deferredToolNames(texts, sent).filter((n) => !loaded.has(n));
  return new Conversation('claude', { tools, deferred, entries, modelTurns });
}

/** The agent loop's requests carry its tools; side requests (titles, summaries) carry none. */
export function isMainAnthropicRequest(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

function message(
  id: string,
  model: string,
  content: Block[],
  stopReason: string,
  inputTokens: number,
  outputTokens: number,
): Block {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
}

function contentOf(turn: ModelTurn): Block[] {
  const content: Block[] = [];
  if (turn.text) content.push({ type: 'text', text: turn.text });
  if (turn.call)
    content.push({ type: 'tool_use', id: turn.call.id, name: turn.call.name, input: turn.call.args ?? {} });
  return content;
}

/** The answer in the shape the request asked for: a stream of events, or one JSON message. */
export function anthropicReply(request: ModelRequest, turn: ModelTurn, messageId: string): DialectReply {
  const body = request.body;
  const model = String(body.model ?? 'claude-scripted');
  const content = contentOf(turn);
  const stopReason = turn.call ? 'tool_use' : 'end_turn';
  const inputTokens = estimateTokens(request.raw);
  const outputTokens = estimateTokens(JSON.stringify(content));
  if (body.stream !== true) return jsonReply(message(messageId, model, content, stopReason, inputTokens, outputTokens));
  const events: { event: string; data: unknown }[] = [];
  const start = message(messageId, model, [], stopReason, inputTokens, 1);
  events.push({ event: 'message_start', data: { type: 'message_start', message: { ...start, stop_reason: null } } });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      });
      events.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } },
      });
    } else {
      events.push({
        event: 'content_block_start',
        data: {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        },
      });
      events.push({
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        },
      });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: outputTokens },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return sseReply(events);
}

/** `count_tokens`: a plausible count, so context accounting works. */
export function anthropicCountTokens(request: ModelRequest): DialectReply {
  return jsonReply({ input_tokens: estimateTokens(request.raw) });
}

/**
 * What a side request gets (a title, a summary, a check run on a small model): a short text, or a
 * JSON object when the prompt asks for one, so the client takes it and moves on.
 */
export function anthropicSideTurn(body: Record<string, unknown>): ModelTurn {
  const prompt = `${textOf(body.system)}\n${((body.messages ?? []) as { content: unknown }[]).map((m) => textOf(m.content)).join('\n')}`;
  if (/\bJSON\b/.test(prompt) && /\btitle\b/i.test(prompt)) return { text: JSON.stringify({ title: 'Scripted run' }) };
  return { text: 'Scripted run' };
}
