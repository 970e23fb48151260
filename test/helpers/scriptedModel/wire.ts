/** What the three APIs share on the wire: a parsed request, and a reply as JSON or as events. */

export interface ModelRequest {
  method: string;
  /** The path with its query (`/v1/messages?beta=true`). */
  url: string;
  pathname: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent. */
  raw: string;
  /** The body parsed (`{}` when it is not JSON). */
  body: Record<string, unknown>;
}

export interface DialectReply {
  status: number;
  headers: Record<string, string>;
  /** Written one after the other, each flushed: server-sent events go out as they would from a model. */
  chunks: string[];
}

export function jsonReply(value: unknown, status = 200): DialectReply {
  return { status, headers: { 'content-type': 'application/json' }, chunks: [JSON.stringify(value)] };
}

/** Server-sent events: `event:` lines when named (Anthropic, OpenAI), bare `data:` lines otherwise (Gemini). */
export function sseReply(events: { event?: string; data: unknown }[]): DialectReply {
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    chunks: events.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${JSON.stringify(e.data)}\n\n`),
  };
}

/** A token count that grows with the text (about four characters a token), never zero. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
