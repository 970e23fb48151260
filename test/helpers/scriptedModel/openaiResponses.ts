/**
 * The OpenAI Responses API as Codex speaks it with a custom model provider (`base_url`,
 * `wire_api = "responses"`): `POST <base_url>/responses` with the whole conversation as `input`
 * items (`store: false`), answered as server-sent events (response.created,
 * response.output_item.added/done, response.output_text.delta, response.completed). Function
 * tools get `function_call` items; free-form tools (`apply_patch`) get `custom_tool_call` items
 * whose `input` is the text.
 *
 * Codex lists each MCP server only as a deferred namespace (`mcp__<server>` in its instructions,
 * "Deferred tool namespaces"); the model runs the client-side `tool_search` (a `tool_search_call`
 * item), Codex answers with a `tool_search_output` item holding the namespace and its tools (the
 * namespace's description is the server's `instructions`), and the model then calls them as
 * `function_call` items with `namespace` set. They never appear in `tools`.
 */
import type { Entry, ToolInfo } from './conversation';
import { Conversation } from './conversation';
import type { ModelTurn } from './script';
import type { DialectReply, ModelRequest } from './wire';
import { estimateTokens, jsonReply, sseReply } from './wire';

type Item = Record<string, unknown> & { type?: string };

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Item[])
    .map((c) => (typeof c.text === 'string' ? c.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** Items the model produced: a run of them is one answer of the model. */
const modelItems = new Set([
  'function_call',
  'custom_tool_call',
  'reasoning',
  'tool_search_call',
  'local_shell_call',
  'web_search_call',
]);

function isModelItem(item: Item): boolean {
  return (
    modelItems.has(String(item.type)) ||
    (item.type === 'message' && item.role === 'assistant') ||
    (item.type === undefined && item.role === 'assistant')
  );
}

/** Tools as Codex sent them; a namespace's tools are listed under their own names, with it. */
function toolsOf(sent: Item[], namespace?: string): ToolInfo[] {
  const tools: ToolInfo[] = [];
  for (const tool of sent) {
    const info = { name: String(tool.name), description: String(tool.description ?? ''), namespace };
    if (tool.type === 'function') tools.push({ ...info, schema: tool.parameters ?? {} });
    else if (tool.type === 'custom') tools.push({ ...info, schema: tool.format ?? null, freeform: true });
    else if (tool.type === 'tool_search') tools.push({ ...info, name: 'tool_search', schema: tool.parameters ?? {} });
    else if (tool.type === 'namespace' && Array.isArray(tool.tools))
      tools.push(...toolsOf(tool.tools as Item[], String(tool.name)));
  }
  return tools;
}

/** Namespaces Codex only names (`Deferred tool namespaces:` in its instructions). */
function deferredNamespaces(texts: string[]): string[] {
  const names = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(/Deferred tool namespaces:\n((?:- [^\n]*\n?)*)/g)) {
      for (const line of match[1].split('\n')) {
        const name = /^- ([^:\s]+)/.exec(line)?.[1];
        if (name) names.add(name);
      }
    }
  }
  return [...names];
}

export function responsesConversation(body: Record<string, unknown>): Conversation {
  const entries: Entry[] = [];
  if (typeof body.instructions === 'string') entries.push({ kind: 'text', role: 'system', text: body.instructions });
  // Tools a client-run tool_search returned: callable from then on, though not in `tools`.
  const searched: ToolInfo[] = [];
  let modelTurns = 0;
  let inModelRun = false;
  for (const item of (Array.isArray(body.input) ? body.input : []) as Item[]) {
    const fromModel = isModelItem(item);
    if (fromModel && !inModelRun) modelTurns++;
    inModelRun = fromModel;
    if (item.type === 'message' || (item.type === undefined && item.role)) {
      const role = item.role === 'assistant' ? 'assistant' : item.role === 'user' ? 'user' : 'system';
      entries.push({ kind: 'text', role, text: textOf(item.content) });
    } else if (item.type === 'function_call') {
      let args: unknown = item.arguments;
      try {
        args = JSON.parse(String(item.arguments));
      } catch {
        // Kept as text.
      }
      entries.push({
        kind: 'call',
        call: {
          id: String(item.call_id),
          name: String(item.name),
          args,
          ...(item.namespace ? { namespace: String(item.namespace) } : {}),
        },
      });
    } else if (item.type === 'custom_tool_call') {
      entries.push({ kind: 'call', call: { id: String(item.call_id), name: String(item.name), args: item.input } });
    } else if (item.type === 'tool_search_call') {
      entries.push({
        kind: 'call',
        call: { id: String(item.call_id ?? item.id), name: 'tool_search', args: item.arguments },
      });
    } else if (
      item.type === 'function_call_output' ||
      item.type === 'custom_tool_call_output' ||
      item.type === 'tool_search_output'
    ) {
      const output = item.output ?? item.tools;
      const text =
        typeof output === 'string'
          ? output
          : Array.isArray(output) && item.type !== 'tool_search_output'
            ? textOf(output)
            : JSON.stringify(output);
      if (item.type === 'tool_search_output' && Array.isArray(item.tools))
        searched.push(...toolsOf(item.tools as Item[]));
      const success = (item.output as Item | undefined)?.success;
      entries.push({
        kind: 'result',
        result: { id: String(item.call_id), name: '', text, isError: success === false, raw: item },
      });
    }
  }
  const tools = [...toolsOf((Array.isArray(body.tools) ? body.tools : []) as Item[]), ...searched];
  const loaded = new Set(tools.map((t) => t.name));
  const texts = entries.flatMap((e) => (e.kind === 'text' ? [e.text] : []));
  return new Conversation('codex', {
    tools,
    deferred: deferredNamespaces(texts).filter((n) => !loaded.has(n)),
    entries,
    modelTurns,
  });
}

export function isMainResponsesRequest(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

/** A side request (a title, a summary): a short text. */
export function responsesSideTurn(_body: Record<string, unknown>): ModelTurn {
  return { text: 'Scripted run' };
}

function outputItems(turn: ModelTurn, id: string): Item[] {
  const items: Item[] = [];
  if (turn.text)
    items.push({
      type: 'message',
      id: `msg_${id}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    });
  const call = turn.call;
  if (call?.kind === 'freeform')
    items.push({
      type: 'custom_tool_call',
      id: `ctc_${id}`,
      call_id: call.id,
      name: call.name,
      input: String(call.args),
      status: 'completed',
    });
  else if (call?.kind === 'toolSearch')
    items.push({
      type: 'tool_search_call',
      id: `tsc_${id}`,
      call_id: call.id,
      execution: 'client',
      arguments: call.args,
      status: 'completed',
    });
  else if (call) {
    const namespace = call.namespace ? { namespace: call.namespace } : {};
    items.push({
      type: 'function_call',
      id: `fc_${id}`,
      call_id: call.id,
      name: call.name,
      ...namespace,
      arguments: JSON.stringify(call.args ?? {}),
      status: 'completed',
    });
  }
  return items;
}

export function responsesReply(request: ModelRequest, turn: ModelTurn, id: string): DialectReply {
  const output = outputItems(turn, id);
  const inputTokens = estimateTokens(request.raw);
  const outputTokens = estimateTokens(JSON.stringify(output));
  const usage = {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + outputTokens,
  };
  const response = {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model: request.body.model ?? 'scripted',
    status: 'completed',
    output,
    usage,
  };
  if (request.body.stream !== true) return jsonReply(response);
  const events: { event: string; data: unknown }[] = [
    {
      event: 'response.created',
      data: { type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } },
    },
  ];
  output.forEach((item, index) => {
    const added = item.type === 'message' ? { ...item, status: 'in_progress', content: [] } : item;
    events.push({
      event: 'response.output_item.added',
      data: { type: 'response.output_item.added', output_index: index, item: added },
    });
    if (item.type === 'message' && turn.text) {
      events.push({
        event: 'response.output_text.delta',
        data: {
          type: 'response.output_text.delta',
          item_id: item.id,
          output_index: index,
          content_index: 0,
          delta: turn.text,
        },
      });
    }
    events.push({
      event: 'response.output_item.done',
      data: { type: 'response.output_item.done', output_index: index, item },
    });
  });
  events.push({ event: 'response.completed', data: { type: 'response.completed', response } });
  return sseReply(events);
}
