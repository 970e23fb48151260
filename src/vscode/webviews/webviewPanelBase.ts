import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ReadyMessage, WebviewKind } from '../../shared/protocol';
import { reportError } from '../commands/commandRegistry';
import { Disposable } from '../lifecycle';

export interface WebviewPanelOptions {
  viewType: string;
  title: string;
  /** Which front end of webview-ui/ to render. */
  kind: WebviewKind;
  column?: vscode.ViewColumn;
}

/**
 * A webview panel that speaks the typed protocol of src/shared/protocol.ts: a `default-src
 * 'none'` CSP with a nonce, resources only from dist/ and media/, the theme's CSS variables,
 * and no message posted before the webview says `ready` (it reloads whenever it is hidden and
 * shown again, and says `ready` again then). Subclasses send their data in {@link onReady}.
 */
export abstract class WebviewPanelBase<
  HostMessage extends { type: string },
  WebviewMessage extends { type: string },
> extends Disposable {
  readonly panel: vscode.WebviewPanel;
  private ready = false;
  private queued: HostMessage[] = [];

  private readonly _onDidDispose = this._register(new vscode.EventEmitter<void>());
  readonly onDidDispose = this._onDidDispose.event;

  constructor(
    protected readonly extensionUri: vscode.Uri,
    protected readonly log: vscode.LogOutputChannel,
    private readonly options: WebviewPanelOptions,
    /** A panel VS Code restored after a reload (serializer), instead of a new one. */
    restored?: vscode.WebviewPanel,
  ) {
    super();
    this.panel =
      restored ??
      vscode.window.createWebviewPanel(options.viewType, options.title, options.column ?? vscode.ViewColumn.Active, {});
    this.panel.webview.options = {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
    this.panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'agent-ledger.svg');
    this._register(this.panel.onDidDispose(() => this.dispose()));
    this._register(this.panel.webview.onDidReceiveMessage((m: WebviewMessage | ReadyMessage) => void this.receive(m)));
    this._register(
      this.panel.onDidChangeViewState(() => {
        // A hidden webview is torn down; it says `ready` again when shown.
        if (!this.panel.visible) this.ready = false;
      }),
    );
    this.panel.webview.html = this.html();
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this._onDidDispose.fire();
    super.dispose();
    this.panel.dispose();
  }

  /** Posts now when the webview is ready, else when it says so (only the latest of each type is kept). */
  protected post(message: HostMessage): void {
    if (this.isDisposed) return;
    if (this.ready) {
      void this.panel.webview.postMessage(message);
      return;
    }
    this.queued = [...this.queued.filter((m) => m.type !== message.type), message];
  }

  protected abstract onReady(): void | Promise<void>;
  protected abstract onMessage(message: Exclude<WebviewMessage, ReadyMessage>): void | Promise<void>;

  private async receive(message: WebviewMessage | ReadyMessage): Promise<void> {
    try {
      if (message.type === 'ready') {
        this.ready = true;
        const queued = this.queued;
        this.queued = [];
        for (const m of queued) void this.panel.webview.postMessage(m);
        await this.onReady();
        return;
      }
      await this.onMessage(message as Exclude<WebviewMessage, ReadyMessage>);
    } catch (err) {
      reportError(`${this.options.viewType}:${message.type}`, err, this.log);
    }
  }

  private html(): string {
    const webview = this.panel.webview;
    const nonce = randomBytes(16).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'webview.css'));
    const csp = [
      `default-src 'none'`,
      `style-src ${webview.cspSource}`,
      `img-src ${webview.cspSource} data:`,
      `font-src ${webview.cspSource}`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${escapeHtml(this.options.title)}</title>
</head>
<body data-view="${this.options.kind}">
<main id="app" aria-live="polite"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
