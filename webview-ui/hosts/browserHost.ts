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
 * The web board's host: the view's messages go to the local server with `fetch` (POST, same
 * origin, the session cookie), the server's come back as Server-Sent Events. Each stream is one
 * session of the view on the server; when the stream reconnects (the server restarted, the
 * machine slept) the view says `ready` again and gets its whole model. A `navigate` from the
 * server goes to `onNavigate` (the shell's router), not to the view.
 */
export function browserHost<ToHost extends { type: string }, FromHost extends { type: string }, State>(
  route: ViewRoute,
  onNavigate: (to: ViewRoute) => void,
  onConnection: (connected: boolean) => void,
): BrowserHost<ToHost, FromHost, State> {
  const stateKey = `agent-ledger:${viewUrl(route)}`;
  let session: string | undefined;
  let queued: ToHost[] = [];
  let source: EventSource | undefined;
  let disposed = false;
  const send = (message: ToHost): void => {
    if (!session) {
      queued.push(message);
      return;
    }
    void fetch(`/api/views/${encodeURIComponent(session)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
      credentials: 'same-origin',
    }).then(
      (r) => {
        // The server forgot the session (it restarted): the stream reconnects and sends a new one.
        if (r.status === 404) queued.push(message);
      },
      () => queued.push(message),
    );
  };
  return {
    kind: 'browser',
    post: send,
    listen(handler) {
      source = new EventSource(viewUrl(route), { withCredentials: true });
      source.onopen = () => onConnection(true);
      source.onerror = () => {
        session = undefined;
        onConnection(false);
      };
      source.onmessage = (event: MessageEvent<string>) => {
        if (disposed) return;
        const message = JSON.parse(event.data) as FromHost | { type: 'session'; id: string };
        if (message.type === 'session') {
          session = (message as { id: string }).id;
          const pending = queued;
          queued = [];
          send({ type: 'ready' } as unknown as ToHost);
          for (const m of pending) send(m);
          return;
        }
        if (message.type === 'navigate') {
          onNavigate((message as unknown as { to: ViewRoute }).to);
          return;
        }
        handler(message as FromHost);
      };
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
      source?.close();
    },
  };
}
