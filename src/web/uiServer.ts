import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { RawData, WebSocket } from 'ws';
import type { Services } from '../app/services';
import { errorMessage } from '../core/errors';
import { parseId } from '../core/ids';
import type { ViewRoute } from '../shared/protocol';
import { checkRequest, checkSocket, securityHeaders, sessionCookie, uiSecurity } from './uiSecurity';
import type { UiSecurity } from './uiSecurity';
import type { ViewContext, ViewSession } from './viewSession';
import { BoardSession, liveBoard } from './views/boardSession';
import { TaskDetailSession } from './views/taskDetailSession';
import { PipelineSession } from './views/pipelineSession';
import { AgentsSession, MemorySession, planGraphSession, RunsSession } from './views/simpleSessions';
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
  const sessions = new Set<{ session: ViewSession; socket: WebSocket }>();
  // One WebSocket per open view: a browser keeps at most 6 HTTP connections to a server, so one
  // event stream per tab held them all from the sixth tab on (its view never loaded, and no tab's
  // click could be sent); WebSockets are not counted against that limit.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: maxBody });
  const board = liveBoard(options.services, options.folder, log);
  const server = http.createServer();
  // Slow or idle connections do not hold the server (event streams send a comment every 25 s).
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  const changes = options.services.engine.onDidChange(() => {
    board.refresh();
    for (const { session } of sessions) session.changed();
  });
  const heartbeat = setInterval(() => {
    for (const { socket } of sessions) socket.ping();
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
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none') {
        // Come from another site (the page `--open` hands the browser): a redirect would stay that
        // site's navigation, so the SameSite=Strict cookie would not go with it. This page's own
        // refresh is a navigation of this site.
        res.writeHead(200, {
          ...securityHeaders,
          'Content-Type': 'text/html; charset=utf-8',
          'Set-Cookie': sessionCookie(security),
          'Cache-Control': 'no-store',
        });
        res.end(
          '<!DOCTYPE html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/"><title>Agent Ledger</title>\n',
        );
        return;
      }
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
    if (req.method === 'GET' && /^\/api\/views\/[A-Za-z0-9_-]+$/.test(url.pathname)) {
      send(res, 426, 'text/plain; charset=utf-8', 'a view is opened as a WebSocket\n');
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
        return new AgentsSession(ctx);
      case 'memory':
        return new MemorySession(ctx);
    }
  }

  /** A page opens a view: `/api/views/<kind>?<key>` as a WebSocket, the view's messages both ways. */
  function openView(security: UiSecurity, req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    const refuse = (status: number, reason: string): void => {
      log(`refused a view ${url.pathname}: ${reason}`);
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${reason}\n`,
      );
    };
    const refused = checkSocket(security, req);
    if (refused) return refuse(refused.status, refused.reason);
    const kind = /^\/api\/views\/([A-Za-z0-9_-]+)$/.exec(url.pathname)?.[1];
    let route: ViewRoute | undefined;
    try {
      route = kind === undefined ? undefined : routeOf(kind, url);
    } catch (err) {
      return refuse(400, errorMessage(err));
    }
    if (!route) return refuse(404, 'not found');
    const opened = route;
    sockets.handleUpgrade(req, socket, head, (ws) => attach(ws, kind!, opened));
  }

  function attach(ws: WebSocket, kind: string, route: ViewRoute): void {
    const write = (message: unknown): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
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
    const open = { session: createSession(route, ctx), socket: ws };
    sessions.add(open);
    ws.on('close', () => {
      sessions.delete(open);
      open.session.dispose();
    });
    ws.on('error', () => ws.terminate());
    // One message at a time, in order: a view's `ready` is answered before what the person did next.
    let queue = Promise.resolve();
    ws.on('message', (data: RawData, isBinary: boolean) => {
      queue = queue.then(() => receive(open.session, data, isBinary, write));
    });
  }

  async function receive(
    session: ViewSession,
    data: RawData,
    isBinary: boolean,
    write: (message: unknown) => void,
  ): Promise<void> {
    let message: unknown;
    try {
      message = isBinary ? undefined : JSON.parse(data.toString());
    } catch {
      message = undefined;
    }
    if (typeof message !== 'object' || message === null || typeof (message as { type?: unknown }).type !== 'string') {
      write({ type: 'error', message: 'a message is a JSON object with a type' });
      return;
    }
    try {
      await session.receive(message as { type: string } & Record<string, unknown>);
    } catch (err) {
      log(`${(message as { type: string }).type} failed: ${errorMessage(err)}`);
      write({ type: 'error', message: errorMessage(err) });
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
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    openView(security, req, socket, head);
  });
  return {
    port,
    url: `http://127.0.0.1:${port}/?token=${security.token}`,
    sessions: () => sessions.size,
    close: async () => {
      clearInterval(heartbeat);
      changes.dispose();
      for (const { session, socket } of sessions) {
        session.dispose();
        socket.terminate();
      }
      sessions.clear();
      sockets.close();
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
