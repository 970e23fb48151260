import * as vscode from 'vscode';
import type { Disposable as CoreDisposable } from '../../core/emitter';
import type { LogEntry } from '../../core/ports/processes';
import { LedgerError } from '../../core/errors';
import { Disposable } from '../lifecycle';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';

/** The URI scheme of an execution's log shown in an editor tab (read-only). */
export const executionLogScheme = 'agent-ledger-run';

/** `agent-ledger-run:/exec-7.log?<folder>`: the tab's title is the run; the query names the folder. */
export function executionLogUri(folder: string, executionId: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: executionLogScheme,
    path: `/${executionId}.log`,
    query: encodeURIComponent(folder),
  });
}

interface OpenLog {
  text: string;
  /** The log file being followed, and where the next read starts. */
  follow: CoreDisposable | undefined;
  /** Lines shown before the last change (to keep following the end only if the reader was there). */
  lines: number;
}

const time = (ts: number): string => new Date(ts).toISOString().slice(11, 19);

/** One log entry as a line of the tab: `14:05:01  text`, `14:05:01 !text` on stderr, `14:05:01 ── text` for the supervisor's notes. */
function lineOf(e: LogEntry): string {
  const mark = e.stream === 'stderr' ? ' ! ' : e.stream === 'meta' ? ' ── ' : '  ';
  return `${time(e.ts)}${mark}${e.message}`;
}

/** The supervisor's last note: the process has exited and the log is complete. */
const isEnd = (e: LogEntry): boolean =>
  e.stream === 'meta' && e.data !== undefined && ('exitCode' in e.data || 'signal' in e.data || e.data.kind === 'exit');

/**
 * Execution logs in editor tabs: the run's JSON Lines log (`.agent-ledger/runs/<exec>.log`)
 * rendered as text, and, while the run goes, followed: new lines are appended as the agent
 * prints them, and a reader at the end of the tab stays at the end.
 */
export class ExecutionLogDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly open = new Map<string, OpenLog>();
  private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly registry: LedgerRegistry) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(executionLogScheme, this));
    this._register(
      vscode.workspace.onDidCloseTextDocument((d) => d.uri.scheme === executionLogScheme && this.close(d.uri)),
    );
    this._register(
      vscode.workspace.onDidChangeTextDocument(
        (e) => e.document.uri.scheme === executionLogScheme && this.keepAtEnd(e.document),
      ),
    );
    this._register({ dispose: () => [...this.open.keys()].forEach((k) => this.open.get(k)?.follow?.dispose()) });
  }

  /** Opens the log of a run in a tab (pinned: it is what the person asked for). */
  async show(folder: string, executionId: string): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(executionLogUri(folder, executionId));
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    const last = Math.max(0, doc.lineCount - 1);
    editor.revealRange(new vscode.Range(last, 0, last, 0));
    return editor;
  }

  /** The text of an open log (tests), or undefined. */
  textOf(folder: string, executionId: string): string | undefined {
    return this.open.get(executionLogUri(folder, executionId).toString())?.text;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const key = uri.toString();
    const known = this.open.get(key);
    if (known) return known.text;
    const folder = decodeURIComponent(uri.query);
    const executionId = uri.path.replace(/^\//, '').replace(/\.log$/, '');
    const ledger = this.registry.byPath(folder);
    if (!ledger) throw new LedgerError('NotFound', `${folder} is not a folder of this window`);
    const services = await ledger.require();
    const slice = await services.instances.readLog(executionId);
    const header = [
      `# ${slice.executionId} · ${slice.agentId}${slice.taskId ? ` · ${slice.taskId}` : ''} · ${slice.status}`,
    ];
    if (!slice.logFile) header.push(`# ${slice.missing ?? 'no log file'}`);
    else header.push(`# ${slice.logFile}${slice.status === 'running' ? ' (following the live log)' : ''}`);
    const entries = slice.entries;
    const state: OpenLog = { text: [...header, '', ...entries.map(lineOf)].join('\n'), follow: undefined, lines: 0 };
    this.open.set(key, state);
    if (slice.logFile && slice.status === 'running' && !entries.some(isEnd)) {
      state.follow = services.instances.followLog(slice.logFile, (more) => this.append(uri, more), slice.nextOffset);
    }
    return state.text;
  }

  private append(uri: vscode.Uri, entries: LogEntry[]): void {
    const state = this.open.get(uri.toString());
    if (!state || entries.length === 0) return;
    state.lines = state.text.split('\n').length;
    state.text += `\n${entries.map(lineOf).join('\n')}`;
    if (entries.some(isEnd)) {
      state.text += '\n# the run has ended';
      state.follow?.dispose();
      state.follow = undefined;
    }
    this._onDidChange.fire(uri);
  }

  /** After new lines: editors that showed the old last line scroll to the new one. */
  private keepAtEnd(doc: vscode.TextDocument): void {
    const state = this.open.get(doc.uri.toString());
    if (!state) return;
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document !== doc) continue;
      const bottom = editor.visibleRanges.at(-1)?.end.line ?? 0;
      if (bottom >= state.lines - 2) {
        const last = doc.lineCount - 1;
        editor.revealRange(new vscode.Range(last, 0, last, 0));
      }
    }
  }

  private close(uri: vscode.Uri): void {
    const state = this.open.get(uri.toString());
    state?.follow?.dispose();
    this.open.delete(uri.toString());
  }
}
