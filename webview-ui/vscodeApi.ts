/** The webview side of the protocol: typed `postMessage` and state over `acquireVsCodeApi()`. */
interface VsCodeApi<State> {
  postMessage(message: unknown): void;
  getState(): State | undefined;
  setState(state: State): void;
}

declare function acquireVsCodeApi<State>(): VsCodeApi<State>;

/** `acquireVsCodeApi` may be called once per page: every view shares this. */
const api = acquireVsCodeApi<unknown>();

export interface HostChannel<ToHost, State> {
  post(message: ToHost): void;
  getState(): State | undefined;
  setState(state: State): void;
}

export function hostChannel<ToHost, State>(): HostChannel<ToHost, State> {
  return {
    post: (message) => api.postMessage(message),
    getState: () => api.getState() as State | undefined,
    setState: (state) => api.setState(state),
  };
}

/** Calls `handler` for each message of the host, then says `ready` (the host posts nothing before). */
export function listen<FromHost>(handler: (message: FromHost) => void): void {
  window.addEventListener('message', (event: MessageEvent<FromHost>) => handler(event.data));
  api.postMessage({ type: 'ready' });
}
