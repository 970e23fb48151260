/**
 * What a view needs from whoever shows it. The views of webview-ui/ are written once and have
 * three hosts: the VS Code webviews (postMessage to the extension), the web board (`agent-ledger
 * ui`: fetch to and Server-Sent Events from the local server) and the MCP Apps (postMessage to a
 * chat client, which calls the server's tools). Every host speaks the typed messages of
 * src/shared/protocol.ts: a view posts `ready` (through {@link Host.listen}), then its requests;
 * the host answers with its data.
 */
export type HostKind = 'vscode' | 'browser' | 'app';

export interface Host<ToHost, FromHost, State = unknown> {
  readonly kind: HostKind;
  post(message: ToHost): void;
  /** Calls `handler` for each message of the host, then says `ready` (the host posts nothing before). */
  listen(handler: (message: FromHost) => void): void;
  /** What the view saved to come back to after a reload (VS Code restores panels from it). */
  getState(): State | undefined;
  setState(state: State): void;
}
