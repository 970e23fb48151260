import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Services } from '../app/services';
import { errorMessage } from '../core/errors';
import { parseId } from '../core/ids';
import { serialiseForSse } from '../core/coordination/bus/sse';
import type { ViewRoute } from '../shared/protocol';
import { checkRequest, securityHeaders, sessionCookie, uiSecurity } from './uiSecurity';
import type { UiSecurity } from './uiSecurity';
import type { ViewContext, ViewSession } from './viewSession';
import { BoardSession, liveBoard } from './views/boardSession';
import { TaskDetailSession } from './views/taskDetailSession';
import { PipelineSession } from './views/pipelineSession';
import { agentsSession, MemorySession, planGraphSession, RunsSession } from './views/simpleSessions';
import { shellPage } from './shellPage';

export interface UiServerOptions {
  services: Services;
  folder: { name: string; root: string };
  /** The person's name: the OS user who started the server. */
  person: string;
  /** 0 (default): a free port the system picks. */
  port?: number;
  /** The token (tests give one); a random one otherwise. */
  token?: string;
  /** Where dist/web/ (the page's script and styles) is. */
  assetsDir?: string;
  log?: (line: string) => void;
}

export interface UiServer {
  port: number;
  /** The address with the token: printed once, opened by `--open`. */
  url: string;
  /** Open view sessions (tests, the log). */
  sessions(): number;
  close(): Promise<void>;
}

/** The largest message a page may post. */
const maxBody = 1024 * 1024;

const assets: Record<string, { file: string; type: string }> = {
  '/web.js': { file: 'web.js', type: 'text/javascript; charset=utf-8' },
  '/webview.css': { file: 'webview.css', type: 'text/css; charset=utf-8' },
  '/web.css': { file: 'web.css', type: 'text/css; charset=utf-8' },
  '/favicon.svg': { file: 'agent-ledger.svg', type: 'image/svg+xml' },
};

/** dist/web beside the bundle; from sources (tests under tsx), the build's. */
export function defaultAssetsDir(): string {
  for (const dir of [path.join(__dirname, 'web'), path.resolve(__dirname, '../../dist/web')])
    if (fs.existsSync(path.join(dir, 'web.js'))) return dir;
  return path.join(__dirname, 'web');
}

/**
 * `agent-ledger ui`: the editor's views in a browser, for people who never open VS Code. A plain
 * node:http server (a handful of fixed routes and one event stream per open view need no
 * framework): loopback only, the token and the Host/Origin checks of uiSecurity.ts on every
 * request, the page's views as sessions that follow the ledger (any process or machine writes,
 * every open page shows it without a reload).
 */
export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const log = options.log ?? (() => undefined);
  const assetsDir = options.assetsDir ?? defaultAssetsDir();
  const sessions = new Map<string, { session: ViewSession; res: http.ServerResponse }>();
  const board = liveBoard(options.services, options.folder, log);
  const server = http.createServer();
  // Slow or idle connections do not hold the server (event streams send a comment every 25 s).
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  const changes = options.services.engine.onDidChange(() => {
    board.refresh();
    for (const { session } of sessions.values()) session.changed();
  });
  const heartbeat = setInterval(() => {
    for (const { res } of sessions.values()) res.write(': ping\n\n');
  }, 25_000);
  heartbeat.unref();

  async function handle(security: UiSecurity, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    const refused = checkRequest(security, req, url);
    if (refused) {
      log(`refused ${req.method} ${url.pathname}: ${refused.reason}`);
      send(res, refused.status, 'text/plain; charset=utf-8', `${refused.reason}\n`);
      return;
    }
    if (req.method === 'GET' && url.searchParams.has('token')) {
      // The token leaves the address bar: the cookie carries it from now on.
      res.writeHead(303, {
        ...securityHeaders,
        'Set-Cookie': sessionCookie(security),
        Location: '/',
        'Cache-Control': 'no-store',
      });
      res.end();
      return;
    }
    if (req.method === 'GET' && url.pathname === '/') {
      send(res, 200, 'text/html; charset=utf-8', shellPage(options.folder.name));
      return;
    }
    const asset = req.method === 'GET' ? assets[url.pathname] : undefined;
    if (asset) {
      fs.readFile(path.join(assetsDir, asset.file), (err, body) => {
        if (err) send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
        else send(res, 200, asset.type, body);
      });
      return;
    }
    const match = /^\/api\/views\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (match && req.method === 'GET') {
      openStream(match[1], url, res);
      return;
    }
    if (match && req.method === 'POST') {
      await receive(match[1], req, res);
      return;
    }
    send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  }

  function routeOf(kind: string, url: URL): ViewRoute | undefined {
    const q = url.searchParams;
    switch (kind) {
      case 'board':
        return { view: 'board' };
      case 'taskDetail':
        return { view: 'taskDetail', taskId: parseId('task', q.get('task')) };
      case 'pipeline': {
        const workspace = q.get('workspace');
        return workspace ? { view: 'pipeline', workspace } : undefined;
      }
      case 'planGraph':
        return { view: 'planGraph', workflowId: parseId('workflow', q.get('workflow')) };
      case 'runs':
        return { view: 'runs', ...(q.get('run') ? { run: q.get('run')! } : {}) };
      case 'agents':
        return { view: 'agents' };
      case 'memory':
        return { view: 'memory' };
      default:
        return undefined;
    }
  }

  function createSession(route: ViewRoute, ctx: ViewContext): ViewSession {
    switch (route.view) {
      case 'board':
        return new BoardSession(ctx);
      case 'taskDetail':
        return new TaskDetailSession(ctx, route.taskId);
      case 'pipeline':
        return new PipelineSession(ctx, route.workspace);
      case 'planGraph':
        return planGraphSession(ctx, route.workflowId);
      case 'runs':
        return new RunsSession(ctx);
      case 'agents':
        return agentsSession(ctx);
      case 'memory':
        return new MemorySession(ctx);
    }
  }

  function openStream(kind: string, url: URL, res: http.ServerResponse): void {
    let route: ViewRoute | undefined;
    try {
      route = routeOf(kind, url);
    } catch (err) {
      send(res, 400, 'text/plain; charset=utf-8', `${errorMessage(err)}\n`);
      return;
    }
    if (!route) {
      send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
      return;
    }
    const id = randomBytes(16).toString('base64url');
    res.writeHead(200, {
      ...securityHeaders,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    const write = (message: unknown): void => {
      if (!res.writableEnded) res.write(`data: ${serialiseForSse(message)}\n\n`);
    };
    const ctx: ViewContext = {
      services: options.services,
      folder: options.folder,
      person: options.person,
      post: (message) => write(message),
      navigate: (to) => write({ type: 'navigate', to }),
      log: (line) => log(`[${kind}] ${line}`),
      board,
    };
    const session = createSession(route, ctx);
    sessions.set(id, { session, res });
    res.on('close', () => {
      sessions.delete(id);
      session.dispose();
    });
    write({ type: 'session', id });
  }

  async function receive(id: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const open = sessions.get(id);
    if (!open) {
      send(res, 404, 'text/plain; charset=utf-8', 'no such view session (reconnect)\n');
      return;
    }
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      send(res, 415, 'text/plain; charset=utf-8', 'send JSON\n');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBody) {
        send(res, 413, 'text/plain; charset=utf-8', 'message too large\n');
        return;
      }
      chunks.push(chunk);
    }
    let message: unknown;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      send(res, 400, 'text/plain; charset=utf-8', 'not JSON\n');
      return;
    }
    if (typeof message !== 'object' || message === null || typeof (message as { type?: unknown }).type !== 'string') {
      send(res, 400, 'text/plain; charset=utf-8', 'a message is an object with a type\n');
      return;
    }
    res.writeHead(204, securityHeaders).end();
    try {
      await open.session.receive(message as { type: string } & Record<string, unknown>);
    } catch (err) {
      log(`${(message as { type: string }).type} failed: ${errorMessage(err)}`);
      if (!open.res.writableEnded)
        open.res.write(`data: ${serialiseForSse({ type: 'error', message: errorMessage(err) })}\n\n`);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  // The port is known only now, and the checks name it: requests are answered from here on.
  const security = uiSecurity(port, options.token);
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    void handle(security, req, res).catch((err: unknown) => {
      log(`${req.method} ${(req.url ?? '').split('?')[0]} failed: ${errorMessage(err)}`);
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error');
      else res.end();
    });
  });
  return {
    port,
    url: `http://127.0.0.1:${port}/?token=${security.token}`,
    sessions: () => sessions.size,
    close: async () => {
      clearInterval(heartbeat);
      changes.dispose();
      for (const { session, res } of sessions.values()) {
        session.dispose();
        res.end();
      }
      sessions.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function send(res: http.ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { ...securityHeaders, 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(body);
}
