import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { LineFramer } from './lineFramer';
import type { Frame } from './lineFramer';
import { checkFrame } from './checkMessage';
import type { FrameLimits, Refusal } from './checkMessage';
import { errorMessage } from '../../core/errors';

/**
 * The MCP stdio transport, with its framing in our hands. The SDK's StdioServerTransport closes
 * itself when one line passes 10 MB (its ReadBuffer throws, the transport closes, stdin is
 * paused, the event loop empties and the process exits 0 without a word) and silently drops
 * lines that are not JSON or not JSON-RPC. Here a line is bounded as it is read, every refused
 * frame is answered with the JSON-RPC error it deserves (with the request's id when it can be
 * read) and logged, and nothing a client sends can close the transport: only the end of stdin does.
 */
export class GuardedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Sees each accepted message before the server does (`mcp serve --verbose` logs it). */
  observe?: (message: JSONRPCMessage) => void;

  private readonly framer: LineFramer;
  private started = false;
  private closed = false;

  constructor(
    private readonly limits: FrameLimits,
    private readonly log: (line: string) => void,
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {
    this.framer = new LineFramer(limits.maxMessageBytes);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('GuardedStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
    this.stdout.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    this.stdin.pause();
    this.framer.clear();
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    for (const frame of this.framer.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) this.handle(frame);
  };

  private readonly onStreamError = (error: Error): void => {
    // A broken pipe means the client is gone; anything else is reported and the server goes on.
    this.onerror?.(error);
  };

  private handle(frame: Frame): void {
    if (frame.kind === 'line' && frame.text.trim() === '') return;
    let checked: ReturnType<typeof checkFrame>;
    try {
      checked = checkFrame(frame, this.limits);
    } catch (err) {
      checked = { refusal: { code: -32603, message: 'internal error while reading the message', reply: true } };
      this.log(`reading a message failed: ${JSON.stringify(String(err))}`);
    }
    if ('refusal' in checked) return this.refuse(checked.refusal);
    try {
      this.observe?.(checked.message);
      this.onmessage?.(checked.message);
    } catch (err) {
      this.log(`handling a message failed: ${JSON.stringify(errorMessage(err))}`);
    }
  }

  private refuse(r: Refusal): void {
    this.log(
      `refused a message${r.id !== undefined ? ` (id ${JSON.stringify(r.id)})` : ''}: ${r.code} ${JSON.stringify(r.message)}`,
    );
    if (!r.reply) return;
    // MCP's error response makes `id` optional: it is left out when it could not be read.
    const reply = {
      jsonrpc: '2.0' as const,
      ...(r.id !== undefined ? { id: r.id } : {}),
      error: { code: r.code, message: r.message },
    };
    void this.send(reply as JSONRPCMessage);
  }
}
