import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One tool call the scripted model makes, in order. */
export interface ScriptedCall {
  /** The tool as the client names it to the model (Claude Code: `mcp__<server>__<tool>`). */
  name: string;
  input: Record<string, unknown>;
}

/**
 * A scripted Anthropic Messages API on loopback for the real Claude Code binary
 * (`ANTHROPIC_BASE_URL`): each turn that offers the next scripted tool calls it (streamed as the
 * API streams a `tool_use`), one call per tool result received so far; every other request (side
 * requests, or a turn before the client has listed the MCP tools) gets a short text answer.
 * Enough to make the real client make real MCP calls without a network or a model.
 */
export interface ScriptedMessages {
  url: string;
  /** Requests seen: how many tools each offered, whether it offered the next scripted one. */
  requests: { tools: number; offered: boolean; results: number }[];
  close(): Promise<void>;
}

export async function startScriptedMessages(calls: ScriptedCall[]): Promise<ScriptedMessages> {
  const requests: ScriptedMessages['requests'] = [];
  let ids = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
        return;
      }
      let j: { tools?: { name: string }[]; messages?: unknown[]; stream?: boolean } = {};
      try {
        j = JSON.parse(body) as typeof j;
      } catch {
        // An empty or broken body gets the text answer.
      }
      const tools = (j.tools ?? []).map((t) => t.name);
      const results = (JSON.stringify(j.messages ?? []).match(/"type":"tool_result"/g) ?? []).length;
      const next = calls[results];
      const offered = next !== undefined && tools.includes(next.name);
      requests.push({ tools: tools.length, offered, results });
      const id = `toolu_${++ids}`;
      const content = offered
        ? [{ type: 'tool_use', id, name: next.name, input: next.input }]
        : [{ type: 'text', text: 'Done.' }];
      const stop = offered ? 'tool_use' : 'end_turn';
      const message = {
        id: `msg_${ids}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content,
        stop_reason: stop,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 5 },
      };
      if (!j.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(message));
        return;
      }
      const events: [string, unknown][] = [
        ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null } }],
        [
          'content_block_start',
          {
            type: 'content_block_start',
            index: 0,
            content_block: offered ? { type: 'tool_use', id, name: next.name, input: {} } : { type: 'text', text: '' },
          },
        ],
        [
          'content_block_delta',
          {
            type: 'content_block_delta',
            index: 0,
            delta: offered
              ? { type: 'input_json_delta', partial_json: JSON.stringify(next.input) }
              : { type: 'text_delta', text: 'Done.' },
          },
        ],
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        [
          'message_delta',
          { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } },
        ],
        ['message_stop', { type: 'message_stop' }],
      ];
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
