import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { Caller } from '../core/caller';
import { localCaller } from '../core/caller';

/** How the server reached the client. */
export type McpTransportKind = 'stdio' | 'http';

/**
 * The client behind one request, as it declared itself: on the 2026-07-28 revision in the
 * request's own `_meta` (so exact per request, on every transport); on 2025-11-25 in its
 * `initialize` (known on stdio and on a `--stateful` HTTP session; a stateless legacy HTTP request
 * has no handshake behind it and declares nothing).
 */
export interface ClientView {
  transport: McpTransportKind;
  era: 'modern' | 'legacy';
  protocolVersion: string | undefined;
  info: { name: string; version?: string } | undefined;
  capabilities: Readonly<Record<string, unknown>>;
  /** Whether the client declared the extension `id` (e.g. `io.modelcontextprotocol/ui`). */
  supportsExtension(id: string): boolean;
  /** Whether the client can ask its user (elicitation; `form` unless told). */
  supportsElicitation(mode?: 'form' | 'url'): boolean;
}

/** Who calls, through which client, and the request's cancellation. */
export interface CallContext {
  caller: Caller;
  client: ClientView;
  signal: AbortSignal;
  /** The bearer secret of an HTTP request (a runner's launch token logs its agent in with it); never logged. */
  bearer?: string;
}

const key = {
  version: 'io.modelcontextprotocol/protocolVersion',
  capabilities: 'io.modelcontextprotocol/clientCapabilities',
  info: 'io.modelcontextprotocol/clientInfo',
} as const;

/** What the HTTP layer puts in the SDK's `authInfo.extra` for each verified request. */
export interface VerifiedRequest {
  caller: Caller;
}

/** The call context of one request handled by `server` (any handler: tools, resources, prompts). */
export function callContextOf(server: Server, ctx: ServerContext, transport: McpTransportKind): CallContext {
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const modern = typeof envelope[key.version] === 'string';
  const capabilities = ((modern ? envelope[key.capabilities] : server.getClientCapabilities()) ?? {}) as Record<
    string,
    unknown
  >;
  const info = (modern ? envelope[key.info] : server.getClientVersion()) as ClientView['info'];
  const client: ClientView = {
    transport,
    era: modern ? 'modern' : 'legacy',
    protocolVersion: modern ? (envelope[key.version] as string) : server.getNegotiatedProtocolVersion(),
    info,
    capabilities,
    supportsExtension: (id) => {
      const extensions = capabilities.extensions as Record<string, unknown> | undefined;
      return extensions?.[id] !== undefined;
    },
    supportsElicitation: (mode = 'form') => {
      const e = capabilities.elicitation as { form?: unknown; url?: unknown } | undefined;
      if (e === undefined) return false;
      // A bare `elicitation: {}` (the 2025-06-18 shape) means form only.
      return mode === 'form' ? e.form !== undefined || e.url === undefined : e.url !== undefined;
    },
  };
  const auth = ctx.http?.authInfo;
  const verified = auth?.extra as Partial<VerifiedRequest> | undefined;
  return {
    caller: verified?.caller ?? localCaller(),
    client,
    signal: ctx.mcpReq.signal,
    ...(auth?.token ? { bearer: auth.token } : {}),
  };
}
