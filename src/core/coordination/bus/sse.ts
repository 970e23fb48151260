import { normaliseEventKind } from './eventRecords';

/**
 * Server-Sent Events framing of watch and subscribe results. `id:` is the event's `seq`,
 * `event:` its upper-cased kind, `data:` the very JSON record the JSON form returns, on one
 * line, so JSON and SSE carry exactly the same fields.
 */
export interface SseMessage {
  id: string;
  event: string;
  data: string;
}

/**
 * JSON on one SSE line. `JSON.stringify` already escapes CR and LF inside strings and adds
 * no raw ones, but it leaves U+2028 and U+2029 as they are, and SSE parsers (and older
 * JavaScript engines) treat them as line breaks. They can only occur inside JSON strings, so
 * replacing them with their `\u` escapes keeps `JSON.parse(data)` equal to the input; the CR
 * and LF passes are kept as a guard for the same contract (self-codex `src/events/sse.ts`).
 */
export function serialiseForSse(payload: unknown): string {
  return JSON.stringify(payload ?? null)
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** One SSE message for a record that has a `seq` and a `kind`. */
export function toSseMessage(record: { seq: number; kind: string }): SseMessage {
  return { id: String(record.seq), event: normaliseEventKind(record.kind), data: serialiseForSse(record) };
}

/** The wire form of messages: `id:`, `event:`, `data:` lines, a blank line after each. */
export function renderSseStream(messages: readonly SseMessage[]): string {
  return messages.map((m) => `id: ${m.id}\nevent: ${m.event}\ndata: ${m.data}\n\n`).join('');
}

/**
 * Parses an SSE stream back into messages (ids, events and data lines; comments and other
 * fields ignored). For tests and for clients written in TypeScript.
 */
export function parseSseStream(stream: string): SseMessage[] {
  const messages: SseMessage[] = [];
  for (const block of stream.split(/\r\n\r\n|\n\n|\r\r/)) {
    if (block.trim() === '') continue;
    const message: SseMessage = { id: '', event: 'message', data: '' };
    const data: string[] = [];
    for (const line of block.split(/\r\n|\n|\r/)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') message.id = value;
      else if (field === 'event') message.event = value;
      else if (field === 'data') data.push(value);
    }
    message.data = data.join('\n');
    messages.push(message);
  }
  return messages;
}
