import type { Server as NetServer, Socket } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';

interface Tracked {
  socket: Socket;
  /** Requests in flight on this connection. */
  busy: number;
  idleTimer: NodeJS.Timeout | undefined;
  idleSince: number;
}

/**
 * Bounds the connections of an HTTP server so that idle ones cannot crowd out clients: a
 * connection with no request in flight is closed after `idleMs`, and past `max` open connections
 * the longest-idle one is closed to admit the new one (a connection serving a request is never
 * closed for that; when every one is busy, the new one is). Node's own `maxConnections` would
 * refuse the new client instead, which lets a thousand silent sockets lock everyone out.
 */
export class ConnectionBounds {
  private readonly open = new Map<Socket, Tracked>();

  constructor(
    private readonly max: number,
    private readonly idleMs: number,
  ) {}

  get count(): number {
    return this.open.size;
  }

  attach(server: NetServer): void {
    server.on('connection', (socket: Socket) => this.admit(socket));
  }

  /** Marks a request in flight on its connection until its response ends or the client goes. */
  requestStarted(req: IncomingMessage, res: ServerResponse): void {
    const tracked = this.open.get(req.socket);
    if (!tracked) return;
    tracked.busy += 1;
    clearTimeout(tracked.idleTimer);
    tracked.idleTimer = undefined;
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      tracked.busy -= 1;
      if (tracked.busy === 0) this.idle(tracked);
    };
    res.on('finish', end);
    res.on('close', end);
  }

  /** Closes every connection (the server is stopping). */
  closeAll(): void {
    for (const t of this.open.values()) t.socket.destroy();
  }

  private admit(socket: Socket): void {
    const tracked: Tracked = { socket, busy: 0, idleTimer: undefined, idleSince: Date.now() };
    this.open.set(socket, tracked);
    socket.on('close', () => {
      clearTimeout(tracked.idleTimer);
      this.open.delete(socket);
    });
    if (this.open.size > this.max) {
      const oldestIdle = [...this.open.values()]
        .filter((t) => t.busy === 0 && t !== tracked)
        .sort((a, b) => a.idleSince - b.idleSince)[0];
      (oldestIdle ?? tracked).socket.destroy();
      if (!oldestIdle) return;
    }
    this.idle(tracked);
  }

  private idle(tracked: Tracked): void {
    tracked.idleSince = Date.now();
    clearTimeout(tracked.idleTimer);
    tracked.idleTimer = setTimeout(() => tracked.socket.destroy(), this.idleMs);
    tracked.idleTimer.unref();
  }
}
