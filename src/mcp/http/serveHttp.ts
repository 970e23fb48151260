import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as os from 'node:os';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { createServer } from '../server';
import type { LedgerServer } from '../server';
import { ServerLogin } from '../serverLogin';
import { checkpointGates } from '../gates/checkpointGates';
import type { CallContext } from '../callContext';
import type { HttpTransportInfo } from '../toolDefinition';
import { log, ServerProcess } from '../serverProcess';
import type { ServeOptions } from '../serverProcess';
import { localCaller, runAsCaller } from '../../core/caller';
import type { Caller } from '../../core/caller';
import { LedgerError, errorMessage } from '../../core/errors';
import type { HttpAddress } from './httpAddress';
import { isLoopback, urlHost } from './httpAddress';
import { httpLimits } from './httpLimits';
import {
  authInfoOf,
  checkBearer,
  protectedResourceMetadata,
  resourceMetadataPath,
  unauthorizedResponse,
} from './bearerAuth';
import { ConnectionBounds } from './connections';
import { LegacyServing } from './legacySessions';
import { StreamCaps } from './streamCaps';
import { jsonRpcErrorResponse, readBody, sendResponse, serveWeb } from './httpIo';

export interface HttpServeOptions extends ServeOptions {
  address: HttpAddress;
  /** Keep 2025-11-25 sessions (`Mcp-Session-Id`): their capabilities, elicitation and notifications over HTTP. */
  stateful?: boolean;
  /** Answer with a stream only when a call sends something before its result (false: `--sse`, always a stream). */
  enableJson?: boolean;
  /** `--no-token`: serve without bearer tokens, as the machine's user (loopback only). */
  noToken?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  /** `--public-url`: the URL clients use (behind a reverse proxy): the metadata's `resource`, and an allowed Host. */
  publicUrl?: string;
  /** `--allowed-host`: Host header names accepted besides loopback and the public URL's. */
  allowedHosts?: readonly string[];
  /** `--allowed-origin`: browser origins (host names) accepted besides loopback. */
  allowedOrigins?: readonly string[];
  /** `--authorization-server`: the team's OAuth/OIDC issuer, published in the resource metadata. */
  authorizationServers?: readonly string[];
}

/** The endpoint's path. */
export const mcpPath = '/mcp';

/** A running HTTP server (tests and the bench stop it; the CLI runs it until a signal). */
export interface RunningHttpServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the ledger over MCP's Streamable HTTP transport to many clients at once, each as its
 * own caller: the 2026-07-28 revision (stateless; `server/discover`, `_meta` on every request,
 * the `Mcp-Method`/`Mcp-Name` headers checked by the SDK) and 2025-11-25 (`initialize`; stateless,
 * or sessions with `--stateful`) on one endpoint. In front of the SDK: the Host and Origin checks
 * (DNS rebinding), the bearer token of every request (the caller, its role), a bounded body, a
 * bounded number of requests in flight per client, and bounded connections.
 */
export async function serveHttp(options: HttpServeOptions): Promise<RunningHttpServer> {
  const { host, port } = options.address;
  if (options.noToken && !isLoopback(host))
    throw new LedgerError(
      'ConfigError',
      `--no-token serves without tokens, so only on loopback (127.0.0.1, ::1, localhost); ${host} is not: make tokens with \`agent-ledger token create\``,
    );
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined))
    throw new LedgerError('ConfigError', '--tls-cert and --tls-key go together');
  const tls =
    options.tlsCert !== undefined
      ? { cert: fs.readFileSync(options.tlsCert), key: fs.readFileSync(options.tlsKey!) }
      : undefined;
  const proc = await ServerProcess.start(options);
  const info: HttpTransportInfo = {
    host,
    port,
    path: mcpPath,
    enableJson: options.enableJson !== false,
    stateless: options.stateful !== true,
  };
  const loginOf = (call: CallContext): ServerLogin | undefined =>
    call.caller.role === 'agent' && call.bearer !== undefined && call.caller.agent !== null
      ? ServerLogin.forLaunchToken(call.bearer, call.caller.agent)
      : undefined;
  const ledger = await createServer(proc.services, {
    ...proc.serverOptions(),
    loginOf,
    transport: 'http',
    http: info,
    gates: checkpointGates(proc.services, loginOf, options.verbose ? log : undefined),
  });
  // A long-lived server: open the ledger now, not at the first call.
  proc.warmUp();
  const endpoint = new HttpEndpoint(proc, ledger, options, info);
  const server = tls ? https.createServer(tls) : http.createServer();
  server.headersTimeout = httpLimits.headersTimeoutMs;
  server.requestTimeout = httpLimits.requestTimeoutMs;
  // Agents call every few seconds to minutes (the model thinks in between): keep their connection.
  server.keepAliveTimeout = httpLimits.idleConnectionMs;
  const connections = new ConnectionBounds(httpLimits.maxConnections, httpLimits.idleConnectionMs);
  connections.attach(server);
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    connections.requestStarted(req, res);
    endpoint.serve(req, res).catch((err: unknown) => {
      log(`an HTTP request failed: ${errorMessage(err)}`);
      if (!res.headersSent) void sendResponse(res, jsonRpcErrorResponse(500, -32603, 'Internal error'));
      else res.destroy();
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  info.port = (server.address() as AddressInfo).port;
  const url = `${tls ? 'https' : 'http'}://${urlHost(host)}:${info.port}${mcpPath}`;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      server.close();
      connections.closeAll();
      await endpoint.close();
      await proc.shutdown();
    })());
  proc.beforeShutdown(() => {
    server.close();
    connections.closeAll();
    void endpoint.close();
  });
  log(
    `MCP server ready on ${proc.workspace} at ${url} (${info.stateless ? 'stateless' : 'stateful'}, ${options.noToken ? 'no tokens: loopback only' : 'bearer tokens required'}; families: ${proc.describeFamilies()})`,
  );
  if (!isLoopback(host) && !tls && options.publicUrl?.startsWith('https://') !== true)
    log(
      'warning: listening beyond loopback without TLS: put it behind a reverse proxy that terminates TLS (docs/http-server.md) or give --tls-cert/--tls-key',
    );
  return { url, close };
}

/** One HTTP server's request path: guards, then the 2026-07-28 handler or the 2025-11-25 leg. */
class HttpEndpoint {
  private readonly modern;
  private readonly legacy: LegacyServing;
  private readonly streams = new StreamCaps(httpLimits.maxStreamsPerClient);
  private readonly resources;
  private readonly allowedHosts: string[];
  private readonly allowedOrigins: string[];

  constructor(
    private readonly proc: ServerProcess,
    ledger: LedgerServer,
    private readonly options: HttpServeOptions,
    private readonly info: HttpTransportInfo,
  ) {
    const onerror = (err: Error): void => {
      if (options.verbose) log(`http: ${err.message}`);
    };
    this.modern = createMcpHandler(({ era }) => ledger.instance({ era, lifetime: 'request' }), {
      legacy: 'reject',
      responseMode: info.enableJson ? 'auto' : 'sse',
      maxRequestBodySize: httpLimits.maxBodyBytes,
      onerror,
    });
    // Resource changes reach every open `subscriptions/listen` stream through the handler's bus.
    this.resources = ledger.followResources({
      updated: (uri) => this.modern.notify.resourceUpdated(uri),
      listChanged: () => this.modern.notify.resourcesChanged(),
    });
    this.legacy = new LegacyServing(ledger, { stateful: !info.stateless, enableJson: info.enableJson, onerror });
    const { host } = options.address;
    const publicHost = options.publicUrl ? new URL(options.publicUrl).hostname : undefined;
    this.allowedHosts = [
      ...localhostAllowedHostnames(),
      ...(isLoopback(host) ? [] : [urlHost(host), os.hostname()]),
      ...(publicHost ? [urlHost(publicHost)] : []),
      ...(options.allowedHosts ?? []),
    ];
    this.allowedOrigins = [...localhostAllowedOrigins(), ...(options.allowedOrigins ?? [])];
  }

  async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // DNS rebinding: a page in a browser cannot reach this server under another name or origin.
    const checkHost =
      isLoopback(this.options.address.host) || this.options.allowedHosts?.length || this.options.publicUrl;
    const host = checkHost ? validateHostHeader(req.headers.host, this.allowedHosts) : { ok: true as const };
    const origin = validateOriginHeader(req.headers.origin, this.allowedOrigins);
    const refused = !host.ok ? host : !origin.ok ? origin : undefined;
    if (refused) return sendResponse(res, jsonRpcErrorResponse(403, -32000, `Forbidden: ${refused.message}`));
    if (url.pathname === resourceMetadataPath(mcpPath) || url.pathname === resourceMetadataPath('/')) {
      if (req.method !== 'GET') return sendResponse(res, jsonRpcErrorResponse(405, -32000, 'Method not allowed.'));
      const metadata = protectedResourceMetadata(this.resourceUrl(req), this.options.authorizationServers ?? []);
      return sendResponse(res, Response.json(metadata, { headers: { 'cache-control': 'max-age=300' } }));
    }
    if (url.pathname !== mcpPath)
      return sendResponse(res, jsonRpcErrorResponse(404, -32601, `Not found: the MCP endpoint is ${mcpPath}`));

    const body = req.method === 'POST' ? await readBody(req, httpLimits.maxBodyBytes) : { kind: 'empty' as const };
    if (body.kind === 'tooLarge')
      return sendResponse(
        res,
        jsonRpcErrorResponse(413, -32600, `Request too large: at most ${httpLimits.maxBodyBytes} bytes`),
      );
    if (body.kind === 'invalid')
      return sendResponse(res, jsonRpcErrorResponse(400, -32700, `Parse error: ${body.message}`));
    const id = body.kind === 'json' ? idOf(body.value) : undefined;
    const who = await this.authenticate(req);
    if (!who) return sendResponse(res, unauthorizedResponse(this.metadataUrl(req), id));
    const principal = who.caller.tokenId !== null ? `token-${who.caller.tokenId}` : `addr-${req.socket.remoteAddress}`;
    if (!this.streams.acquire(principal))
      return sendResponse(
        res,
        jsonRpcErrorResponse(
          429,
          -32000,
          `Too many requests in flight from this client: at most ${httpLimits.maxStreamsPerClient} at once`,
          { 'retry-after': '1' },
        ),
      );
    res.on('close', () => this.streams.release(principal));
    const parsedBody = body.kind === 'json' ? body.value : undefined;
    await runAsCaller(who.caller, () =>
      serveWeb(req, res, (request, o) => this.route(request, o), { authInfo: who.authInfo, parsedBody }),
    );
  }

  async close(): Promise<void> {
    this.resources.dispose();
    await this.legacy.closeAll();
    await this.modern.close();
  }

  /** The caller of a request: its verified token, or the local user on a `--no-token` server. */
  private async authenticate(req: http.IncomingMessage): Promise<{ caller: Caller; authInfo?: AuthInfo } | undefined> {
    if (this.options.noToken) return { caller: localCaller() };
    const services = await this.proc.services.get();
    const check = await checkBearer(req.headers.authorization, (secret) => services.tokens.verify(secret));
    if (check.kind !== 'verified') return undefined;
    return { caller: check.caller, authInfo: authInfoOf(check.caller, check.secret) };
  }

  private async route(request: Request, o: { authInfo?: AuthInfo; parsedBody?: unknown }): Promise<Response> {
    const principal = principalOf(o.authInfo);
    const post = request.method.toUpperCase() === 'POST';
    const legacy =
      this.legacy.isSessionRequest(request) ||
      (post && !claimsModern(o.parsedBody) && (await isLegacyRequest(request, o.parsedBody))) ||
      (!post && !this.info.stateless);
    if (legacy) return this.legacy.handle(request, principal, o.authInfo, o.parsedBody);
    return this.modern.fetch(request, o);
  }

  private resourceUrl(req: http.IncomingMessage): string {
    if (this.options.publicUrl) return this.options.publicUrl;
    const scheme = this.options.tlsCert ? 'https' : 'http';
    return `${scheme}://${req.headers.host ?? `${urlHost(this.options.address.host)}:${this.info.port}`}${mcpPath}`;
  }

  private metadataUrl(req: http.IncomingMessage): string {
    const resource = new URL(this.resourceUrl(req));
    return `${resource.origin}${resourceMetadataPath(resource.pathname)}`;
  }
}

/** The principal a verified request's authInfo names (sessions and stream caps are per principal). */
function principalOf(authInfo: AuthInfo | undefined): string {
  return authInfo?.clientId ?? 'local';
}

/**
 * A request that carries the 2026-07-28 envelope in its `_meta`: the SDK's modern handler takes it
 * (and refuses it with the spec's codes when it is not well formed), without classifying it twice.
 */
function claimsModern(body: unknown): boolean {
  const meta = (body as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta;
  return typeof meta?.['io.modelcontextprotocol/protocolVersion'] === 'string';
}

function idOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null && 'id' in body ? (body as { id: unknown }).id : undefined;
}
