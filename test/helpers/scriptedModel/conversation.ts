/**
 * What the model was shown in one request, the same shape whichever API the client spoke: the
 * tools it could call (and the ones only named, to be loaded by a search tool), every text it
 * read (system prompt, the MCP servers' instructions, reminders, the user's prompt) and the tool
 * calls it made with their results, in order. Script steps written as functions receive it, so a
 * test can react to what a tool returned.
 */

/** The client a request came from, by the API it spoke. */
export type ClientKind = 'claude' | 'codex' | 'gemini';

export interface ToolInfo {
  /** The name as the client sent it (`mcp__agent-ledger__task_list`, `run_shell_command`, …). */
  name: string;
  description: string;
  /** Its input schema, or null when the client sent only the name (a deferred tool). */
  schema: unknown;
  /** A free-form tool (Codex's `apply_patch`): its input is text, not JSON arguments. */
  freeform?: boolean;
  /** The namespace it was listed in (Codex: `mcp__<server>` for an MCP server's tools). */
  namespace?: string;
}

export interface ToolCall {
  id: string;
  name: string;
  namespace?: string;
  /** JSON arguments, or the text of a free-form call. */
  args: unknown;
}

export interface ToolResult {
  /** The id of the call it answers. */
  id: string;
  /** The name of that call's tool ('' when the call is not in the request). */
  name: string;
  /** The text the model reads (the text parts joined). */
  text: string;
  isError: boolean;
  /** The result exactly as the client sent it. */
  raw: unknown;
}

export type Entry =
  | { kind: 'text'; role: 'system' | 'user' | 'assistant'; text: string }
  | { kind: 'call'; call: ToolCall }
  | { kind: 'result'; result: ToolResult };

/** The unprefixed name of a client's tool (`mcp__agent-ledger__task_list` → `task_list`). */
export function toolMatches(fullName: string, name: string, server?: string): boolean {
  if (fullName === name) return true;
  if (server)
    return (
      fullName === `mcp__${server}__${name}` ||
      fullName === `mcp_${server}_${name}` ||
      fullName === `${server}__${name}`
    );
  return fullName.endsWith(`__${name}`) || (fullName.startsWith('mcp_') && fullName.endsWith(`_${name}`));
}

export class Conversation {
  /** Tools sent with their schema: the model can call them now. */
  readonly tools: ToolInfo[];
  /** Tools the model was only told the names of (Claude Code's and Codex's deferred tools). */
  readonly deferred: string[];
  readonly entries: Entry[];
  readonly calls: ToolCall[];
  readonly results: ToolResult[];
  /** How many answers of the model the request carries: the position in the script. */
  readonly modelTurns: number;

  constructor(
    readonly client: ClientKind,
    init: { tools: ToolInfo[]; deferred: string[]; entries: Entry[]; modelTurns: number },
  ) {
    this.tools = init.tools;
    this.deferred = init.deferred;
    this.calls = init.entries.flatMap((e) => (e.kind === 'call' ? [e.call] : []));
    const names = new Map(this.calls.map((c) => [c.id, c.name]));
    this.entries = init.entries.map((e) =>
      e.kind === 'result' && !e.result.name
        ? { kind: 'result', result: { ...e.result, name: names.get(e.result.id) ?? '' } }
        : e,
    );
    this.results = this.entries.flatMap((e) => (e.kind === 'result' ? [e.result] : []));
    this.modelTurns = init.modelTurns;
  }

  /** The system prompt and every text message, in order: what the model read besides tool results. */
  get text(): string {
    return this.entries.flatMap((e) => (e.kind === 'text' ? [e.text] : [])).join('\n');
  }

  /** The texts of one role. */
  texts(role: 'system' | 'user' | 'assistant'): string[] {
    return this.entries.flatMap((e) => (e.kind === 'text' && e.role === role ? [e.text] : []));
  }

  /** The callable tool for `name` (ours unprefixed, or the client's own name). */
  tool(name: string, server?: string): ToolInfo | undefined {
    return this.tools.find((t) => t.name === name) ?? this.tools.find((t) => toolMatches(t.name, name, server));
  }

  /** The full name of a deferred tool for `name`. */
  deferredTool(name: string, server?: string): string | undefined {
    return this.deferred.find((d) => d === name) ?? this.deferred.find((d) => toolMatches(d, name, server));
  }

  /** The last result of the tool `name` (any tool when omitted). */
  lastResult(name?: string): ToolResult | undefined {
    return this.results.filter((r) => name === undefined || toolMatches(r.name, name)).at(-1);
  }

  /** The last result of `name` read as JSON: its text, or the first JSON object in it. */
  resultJson<T = Record<string, unknown>>(name?: string): T {
    const result = this.lastResult(name);
    if (!result)
      throw new Error(
        `no result of ${name ?? 'any tool'} yet (calls: ${this.calls.map((c) => c.name).join(', ') || 'none'})`,
      );
    return parseJsonText(result.text) as T;
  }
}

/** JSON from a tool result's text: the whole text, or its first `{…}` (clients may wrap it). */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start >= 0 && end > start) return JSON.parse(text.slice(start, end + 1));
    throw new Error(`not JSON: ${text.slice(0, 200)}`);
  }
}
