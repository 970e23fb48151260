import type { Host } from './host';

/** The webview side of VS Code's API; exists only inside a VS Code webview. */
interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** `acquireVsCodeApi` may be called once per page: every view shares this. */
let api: VsCodeApi | undefined;

/** The VS Code webview host: typed `postMessage` to the extension, state kept by VS Code. */
export function vscodeHost<ToHost, FromHost, State>(): Host<ToHost, FromHost, State> {
  api ??= acquireVsCodeApi();
  const vscode = api;
  return {
    kind: 'vscode',
    post: (message) => vscode.postMessage(message),
    listen: (handler) => {
      window.addEventListener('message', (event: MessageEvent<FromHost>) => handler(event.data));
      vscode.postMessage({ type: 'ready' });
    },
    getState: () => vscode.getState() as State | undefined,
    setState: (state) => vscode.setState(state),
  };
}
