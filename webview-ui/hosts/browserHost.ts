import type { ViewRoute } from '../../src/shared/protocol';
import type { Host } from './host';

/** Where a view of the web board gets its messages: `/api/views/<kind>?<key>` (routes.ts). */
export function viewUrl(route: ViewRoute): string {
  const q = new URLSearchParams();
  switch (route.view) {
    case 'taskDetail':
      q.set('task', String(route.taskId));
      break;
    case 'pipeline':
      q.set('workspace', route.workspace);
      break;
    case 'planGraph':
      q.set('workflow', String(route.workflowId));
      break;
    case 'runs':
      if (route.run) q.set('run', route.run);
      break;
    case 'memory':
      if (route.entry) q.set('entry', route.entry);
      break;
  }
  const query = q.toString();
  return `/api/views/${route.view}${query ? `?${query}` : ''}`;
}

export interface BrowserHost<ToHost, FromHost, State> extends Host<ToHost, FromHost, State> {
  /** Closes the stream (the person went to another view). */
  dispose(): void;
}

/**
 * The web board's host: one WebSocket per open view (same origin, the session cookie), the view's
 * messages both ways. The socket is the view's session on the server; when it reconnects (the
 * server restarted, the machine slept) the view says `ready` again and gets its whole model. A
 * `navigate` from the server goes to `onNavigate` (the shell's router), not to the view.
 */
export function browserHost<ToHost extends { type: string }, FromHost extends { type: string }, State>(
  route: ViewRoute,
  onNavigate: (to: ViewRoute) => void,
  onConnection: (connected: boolean) => void,
): BrowserHost<ToHost, FromHost, State> {
  const stateKey = `agent-ledger:${viewUrl(route)}`;
  let socket: WebSocket | undefined;
  let queued: ToHost[] = [];
  let disposed = false;
  let retryMs = 250;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const send = (message: ToHost): void => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    else queued.push(message);
  };
  const connect = (handler: (message: FromHost) => void): void => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${viewUrl(route)}`);
    socket = ws;
    ws.onopen = () => {
      retryMs = 250;
      onConnection(true);
      const pending = queued;
      queued = [];
      send({ type: 'ready' } as unknown as ToHost);
      for (const m of pending) send(m);
    };
    ws.onclose = () => {
      if (disposed || socket !== ws) return;
      onConnection(false);
      retry = setTimeout(() => connect(handler), retryMs);
      retryMs = Math.min(retryMs * 2, 5_000);
    };
    ws.onmessage = (event: MessageEvent<string>) => {
      if (disposed) return;
      const message = JSON.parse(event.data) as FromHost;
      if (message.type === 'navigate') {
        onNavigate((message as unknown as { to: ViewRoute }).to);
        return;
      }
      handler(message);
    };
  };
  return {
    kind: 'browser',
    post: send,
    listen(handler) {
      connect(handler);
    },
    getState() {
      const saved = sessionStorage.getItem(stateKey);
      return saved === null ? undefined : (JSON.parse(saved) as State);
    },
    setState(state) {
      sessionStorage.setItem(stateKey, JSON.stringify(state));
    },
    dispose() {
      disposed = true;
      clearTimeout(retry);
      socket?.close();
    },
  };
}
