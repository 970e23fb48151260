import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { AuthInfo, Server } from '@modelcontextprotocol/server';
import type { LedgerServer } from '../server';
import { httpLimits } from './httpLimits';

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  /** The token (or address) that opened it: only it may use the session. */
  principal: string;
  idleTimer: NodeJS.Timeout | undefined;
}

/**
 * The 2025-11-25 clients of an HTTP server. Stateless (the default): each request is served by a
 * fresh instance, as the SDK's own fallback does, but with JSON answers when the client or the
 * server asks for them (`enableJson`). Stateful (`--stateful`): an `initialize` opens a session
 * (`Mcp-Session-Id`) served by one instance, so the server knows the client's capabilities on
 * later requests and can send it requests of its own (elicitation at a checkpoint) and resource
 * notifications; a session belongs to the token that opened it, and closes when idle.
 */
export class LegacyServing {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly ledger: LedgerServer,
    private readonly options: { stateful: boolean; enableJson: boolean; onerror: (err: Error) => void },
  ) {}

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Whether this request belongs to a session (a `--stateful` server only has any). */
  isSessionRequest(request: Request): boolean {
    return this.options.stateful && request.headers.has('mcp-session-id');
  }

  async handle(
    request: Request,
    principal: string,
    authInfo: AuthInfo | undefined,
    parsedBody: unknown,
  ): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (this.options.stateful && id !== null) {
      const session = this.sessions.get(id);
      // An unknown session and another client's session read the same: 404, start a new one.
      if (!session || session.principal !== principal) return sessionNotFound();
      this.touch(id, session);
      return session.transport.handleRequest(request, { ...(authInfo ? { authInfo } : {}), parsedBody });
    }
    if (request.method.toUpperCase() !== 'POST') return methodNotAllowed();
    if (this.options.stateful && isInitialize(parsedBody)) return this.open(request, principal, authInfo, parsedBody);
    return this.once(request, authInfo, parsedBody);
  }

  closeAll(): Promise<void> {
    return Promise.all([...this.sessions.keys()].map((id) => this.close(id))).then(() => undefined);
  }

  /** One 2025-11-25 request on a fresh instance, torn down when its answer is complete. */
  private async once(request: Request, authInfo: AuthInfo | undefined, parsedBody: unknown): Promise<Response> {
    const server = this.ledger.instance({ era: 'legacy', lifetime: 'request' });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: this.jsonFor(request),
    });
    await server.connect(transport);
    const teardown = (): void => {
      transport.close().catch(() => undefined);
      server.close().catch(() => undefined);
    };
    request.signal.addEventListener('abort', teardown, { once: true });
    const response = await transport.handleRequest(request, { ...(authInfo ? { authInfo } : {}), parsedBody });
    if (response.body === null || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
      teardown();
      return response;
    }
    return new Response(endsWith(response.body, teardown), response);
  }

  private async open(
    request: Request,
    principal: string,
    authInfo: AuthInfo | undefined,
    parsedBody: unknown,
  ): Promise<Response> {
    const mine = [...this.sessions.values()].filter((s) => s.principal === principal);
    // A client past its share gives up its oldest session rather than being refused.
    if (mine.length >= httpLimits.maxSessionsPerClient) {
      const oldest = [...this.sessions.entries()].find(([, s]) => s.principal === principal);
      if (oldest) await this.close(oldest[0]);
    }
    const server = this.ledger.instance({ era: 'legacy', lifetime: 'connection' });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // A session's answers stream whenever the client reads streams: the SDK drops a request of the
      // server's own (a checkpoint's question) that would have to ride a JSON answer.
      enableJsonResponse: !(request.headers.get('accept') ?? '').includes('text/event-stream'),
      onsessioninitialized: (id) => {
        const session: Session = { transport, server, principal, idleTimer: undefined };
        this.sessions.set(id, session);
        this.touch(id, session);
      },
      onsessionclosed: (id) => void this.close(id),
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && this.sessions.get(id)?.transport === transport) void this.close(id);
    };
    await server.connect(transport);
    return transport.handleRequest(request, { ...(authInfo ? { authInfo } : {}), parsedBody });
  }

  private touch(id: string, session: Session): void {
    clearTimeout(session.idleTimer);
    session.idleTimer = setTimeout(() => void this.close(id), httpLimits.sessionIdleMs);
    session.idleTimer.unref();
  }

  private async close(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    clearTimeout(session.idleTimer);
    await session.transport.close().catch((err: unknown) => this.options.onerror(err as Error));
    await session.server.close().catch(() => undefined);
  }

  /** JSON answers when the server was told to give them, or when the client cannot read a stream. */
  private jsonFor(request: Request): boolean {
    const accept = request.headers.get('accept') ?? '';
    return this.options.enableJson || !accept.includes('text/event-stream');
  }
}

function isInitialize(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';
}

/** The stream of an SSE answer, calling `done` once it ended (or the client went). */
function endsWith(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  const finish = (): void => {
    if (!finished) {
      finished = true;
      done();
    }
  };
  return new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          finish();
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        finish();
        controller.error(err);
      }
    },
    cancel: async (reason) => {
      finish();
      await reader.cancel(reason).catch(() => undefined);
    },
  });
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', id: null, error: { code, message } }, { status });
}

function sessionNotFound(): Response {
  return jsonRpcError(404, -32001, 'Session not found: send initialize again to start a new session');
}

function methodNotAllowed(): Response {
  return new Response(
    JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed.' } }),
    { status: 405, headers: { 'content-type': 'application/json', allow: 'POST' } },
  );
}
