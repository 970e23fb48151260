/**
 * The Gemini API as Gemini CLI speaks it when `GOOGLE_GEMINI_BASE_URL` points it here:
 * `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` for the agent loop (server-sent
 * `data:` lines, each a GenerateContentResponse), `:generateContent` for its side requests (the
 * model router's complexity score, the next-speaker check: JSON answers to a
 * `responseJsonSchema`), and `:countTokens`. Calls are `functionCall` parts, results come back
 * as `functionResponse` parts of a user turn.
 */
import type { Entry, ToolInfo } from './conversation';
import { Conversation } from './conversation';
import type { ModelTurn } from './script';
import type { DialectReply, ModelRequest } from './wire';
import { estimateTokens, jsonReply, sseReply } from './wire';

type Part = Record<string, unknown>;

function systemText(body: Record<string, unknown>): string {
  const instruction = body.systemInstruction as { parts?: Part[] } | string | undefined;
  if (typeof instruction === 'string') return instruction;
  return (instruction?.parts ?? []).map((p) => String(p.text ?? '')).join('\n');
}

/** A function response as the model reads it: its `output` text, else the whole response as JSON. */
function responseText(response: unknown): string {
  const r = response as Record<string, unknown> | undefined;
  if (r && typeof r.output === 'string' && Object.keys(r).length === 1) return r.output;
  return JSON.stringify(response);
}

export function geminiConversation(body: Record<string, unknown>): Conversation {
  const entries: Entry[] = [];
  const system = systemText(body);
  if (system) entries.push({ kind: 'text', role: 'system', text: system });
  let modelTurns = 0;
  // Results without an id answer the oldest unanswered call of that name.
  const unanswered: { id: string; name: string }[] = [];
  for (const content of (body.contents ?? []) as { role?: string; parts?: Part[] }[]) {
    const role = content.role === 'model' ? 'assistant' : 'user';
    if (role === 'assistant') modelTurns++;
    for (const part of content.parts ?? []) {
      if (typeof part.text === 'string' && part.thought !== true) entries.push({ kind: 'text', role, text: part.text });
      const call = part.functionCall as { id?: string; name: string; args?: unknown } | undefined;
      if (call) {
        const id = call.id ?? `${call.name}#${unanswered.length}`;
        unanswered.push({ id, name: call.name });
        entries.push({ kind: 'call', call: { id, name: call.name, args: call.args ?? {} } });
      }
      const response = part.functionResponse as
        { id?: string; name: string; response?: Record<string, unknown> } | undefined;
      if (response) {
        const index = unanswered.findIndex((c) => (response.id ? c.id === response.id : c.name === response.name));
        const id = index >= 0 ? unanswered.splice(index, 1)[0].id : (response.id ?? response.name);
        const isError = response.response !== undefined && 'error' in response.response;
        entries.push({
          kind: 'result',
          result: { id, name: response.name, text: responseText(response.response), isError, raw: part },
        });
      }
    }
  }
  const tools: ToolInfo[] = [];
  for (const group of (body.tools ?? []) as { functionDeclarations?: Part[] }[]) {
    for (const d of group.functionDeclarations ?? [])
      tools.push({
        name: String(d.name),
        description: String(d.description ?? ''),
        schema: d.parametersJsonSchema ?? d.parameters ?? {},
      });
  }
  return new Conversation('gemini', { tools, deferred: [], entries, modelTurns });
}

/** The agent loop sends its tools; the router and the checks send a JSON schema and none. */
export function isMainGeminiRequest(body: Record<string, unknown>): boolean {
  const config = body.generationConfig as Record<string, unknown> | undefined;
  return !config?.responseJsonSchema && !config?.responseSchema && Array.isArray(body.tools) && body.tools.length > 0;
}

/** A value of a JSON schema: the first of an enum, a low number, a short string. */
export function sampleOf(schema: unknown, key = ''): unknown {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  switch (String(s.type ?? '').toLowerCase()) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries((s.properties ?? {}) as Record<string, unknown>))
        out[name] = sampleOf(sub, name);
      return out;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 10;
    case 'boolean':
      return false;
    default:
      return key ? `scripted ${key}` : 'scripted';
  }
}

/**
 * Side requests: the JSON the schema asks for. The next-speaker check is told the user speaks
 * next, so the turn ends where the script ended it.
 */
export function geminiSideTurn(body: Record<string, unknown>): ModelTurn {
  const config = (body.generationConfig ?? {}) as Record<string, unknown>;
  const schema = config.responseJsonSchema ?? config.responseSchema;
  if (!schema) return { text: 'Scripted run' };
  const value = sampleOf(schema) as Record<string, unknown>;
  if (value && typeof value === 'object' && 'next_speaker' in value) value.next_speaker = 'user';
  return { text: JSON.stringify(value) };
}

function responseOf(turn: ModelTurn, model: string, inputTokens: number): Record<string, unknown> {
  const parts: Part[] = [];
  if (turn.text) parts.push({ text: turn.text });
  if (turn.call) parts.push({ functionCall: { id: turn.call.id, name: turn.call.name, args: turn.call.args ?? {} } });
  const outputTokens = estimateTokens(JSON.stringify(parts));
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: inputTokens,
      candidatesTokenCount: outputTokens,
      totalTokenCount: inputTokens + outputTokens,
    },
    modelVersion: model,
  };
}

export function geminiReply(request: ModelRequest, model: string, stream: boolean, turn: ModelTurn): DialectReply {
  const response = responseOf(turn, model, estimateTokens(request.raw));
  return stream ? sseReply([{ data: response }]) : jsonReply(response);
}

export function geminiCountTokens(request: ModelRequest): DialectReply {
  return jsonReply({ totalTokens: estimateTokens(request.raw) });
}
