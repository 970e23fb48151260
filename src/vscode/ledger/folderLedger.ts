import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../../app/services';
import { LedgerError } from '../../core/errors';
import type { LedgerEvent } from '../../core/events/eventLog';
import type { TaskTreeQueries } from '../../core/tasks/taskTree';
import { Disposable } from '../lifecycle';
import { loadDomain } from './loadDomain';
import { worktreesDirSetting } from '../worktreesSetting';
import { ledgerFolder, storeFilesGlob, storeFilesOf, storeImageName } from '../../core/ledgerFiles';
import { withoutPassword } from './ledgerDatabase';
import type { LedgerDatabase } from './ledgerDatabase';

export type LedgerState = 'absent' | 'opening' | 'open' | 'failed';

/** Why a ledger's data may look different now. Views re-read; notifiers read the new events. */
export interface LedgerChange {
  ledger: FolderLedger;
  reason: 'opened' | 'closed' | 'failed' | 'store';
  /** For `store`: the records came from another process (an agent's server, the CLI). */
  external?: boolean;
}

/**
 * The ledger of one workspace folder: the same services the MCP server and the CLI build
 * (`createServices`), opened in this process on the same multi-process store. Opening loads
 * sql.js and the image, so it happens only when the store exists and someone needs it — or
 * when it appears (an agent's first tool call creates it), which the file watcher notices.
 */
export class FolderLedger extends Disposable {
  private _services: Services | undefined;
  private _tree: TaskTreeQueries | undefined;
  private opening: Promise<Services | undefined> | undefined;
  private _state: LedgerState = 'absent';
  private _error: unknown;
  private storeSubscription: { dispose(): void } | undefined;
  /** The team ledger's password this ledger opened with: scrubbed from every message it shows or logs. */
  private password: string | undefined;

  private readonly _onDidChange = this._register(new vscode.EventEmitter<LedgerChange>());
  readonly onDidChange = this._onDidChange.event;

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    private readonly log: vscode.LogOutputChannel,
    private readonly database: LedgerDatabase,
  ) {
    super();
    const watcher = this._register(
      vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, storeFilesGlob)),
    );
    this._register(watcher.onDidCreate(() => void this.open({ retry: true })));
    // A checkpoint renames files in place; only a store that is really gone closes the ledger.
    this._register(watcher.onDidDelete(() => setTimeout(() => this.closeIfGone(), 500)));
  }

  get root(): string {
    return this.folder.uri.fsPath;
  }

  get name(): string {
    return this.folder.name;
  }

  get state(): LedgerState {
    return this._state;
  }

  get error(): unknown {
    return this._error;
  }

  /** The open services, or undefined while the ledger is absent or opening. */
  get services(): Services | undefined {
    return this._services;
  }

  /** Read model of the Tasks tree, once open. */
  get tree(): TaskTreeQueries | undefined {
    return this._tree;
  }

  /** Whether this folder's ledger is a team ledger on PostgreSQL (`agentLedger.database`). */
  get isTeam(): boolean {
    try {
      return this.database.url(this.folder) !== undefined;
    } catch {
      return true; // a setting that is wrong still names a team ledger: opening says why
    }
  }

  /** Whether this folder holds a ledger on disk (cheap: two stats), or names a team ledger. */
  exists(): boolean {
    if (this.folder.uri.scheme !== 'file') return false;
    if (this.isTeam) return true;
    const files = storeFilesOf(path.join(this.root, ledgerFolder, storeImageName));
    return existsSync(files.journal) || existsSync(files.image);
  }

  /**
   * Opens the ledger if it exists (or `create` says to make one); resolves with the services, or
   * undefined when there is none. Safe to call often: it opens once. After a failure it tries
   * again only when asked to (`retry`: the Refresh command, the store's files changing), so a
   * broken store does not make every view refresh try again.
   */
  open(options: { create?: boolean; retry?: boolean } = {}): Promise<Services | undefined> {
    if (this._services) return Promise.resolve(this._services);
    if (this.opening) return this.opening;
    if (this._state === 'failed' && !options.retry) return Promise.resolve(undefined);
    if (this.isDisposed || (!options.create && !this.exists())) return Promise.resolve(undefined);
    this._state = 'opening';
    this.opening = this.doOpen().finally(() => (this.opening = undefined));
    return this.opening;
  }

  /** The services, opening the store if needed; throws an actionable error when there is no ledger. */
  async require(): Promise<Services> {
    const services = await this.open({ retry: true });
    if (services) return services;
    if (this._state === 'failed') throw this._error;
    throw new LedgerError(
      'NotFound',
      `No agent work is recorded in ${this.name} yet: there is no .agent-ledger store. It is created when an agent calls its first Agent Ledger tool.`,
    );
  }

  lastEventSeq(): Promise<number> {
    return this._services ? this._services.events.lastSeq() : Promise.resolve(0);
  }

  /** Events after `seq`, oldest first (empty while closed). */
  eventsSince(seq: number, limit = 500): Promise<LedgerEvent[]> {
    return this._services ? this._services.events.since(seq, limit) : Promise.resolve([]);
  }

  override dispose(): void {
    this.closeServices();
    super.dispose();
  }

  private async doOpen(): Promise<Services | undefined> {
    const started = performance.now();
    try {
      // Loaded on first use: sql.js, simple-git and the domain stay out of activation.
      const { createServices } = loadDomain();
      const team = await this.database.connection(this.folder);
      this.password = team?.password;
      const services = await createServices({
        workspace: this.root,
        watch: true,
        worktreesDir: worktreesDirSetting(),
        dbPath: team?.url,
        dbPassword: team?.password,
      });
      try {
        // A damaged ledger still opens (so MCP servers answer each call with its code), but
        // every read refuses: fail the open here, so the views say why instead of looking empty
        // (and try again when the files change, e.g. after `agent-ledger db repair`).
        await services.engine.read(async () => undefined);
      } catch (err) {
        void services.dispose();
        throw err;
      }
      if (this.isDisposed) {
        void services.dispose();
        return undefined;
      }
      this._services = services;
      this._tree = services.taskTree;
      this._state = 'open';
      this._error = undefined;
      this.storeSubscription = services.engine.onDidChange((c) =>
        this._onDidChange.fire({ ledger: this, reason: 'store', external: c.external }),
      );
      this.log.info(
        `[${this.name}] ledger opened in ${(performance.now() - started).toFixed(0)} ms (${services.paths.dbPath})`,
      );
      this._onDidChange.fire({ ledger: this, reason: 'opened' });
      return services;
    } catch (err) {
      this._state = 'failed';
      this._error = err;
      this.log.error(`[${this.name}] could not open the ledger: ${this.messageOf(err)}`);
      this._onDidChange.fire({ ledger: this, reason: 'failed' });
      return undefined;
    }
  }

  /** An error's message as it may be shown: without the team ledger's password. */
  messageOf(err: unknown): string {
    const message = withoutPassword(err instanceof Error ? err.message : String(err), this.password);
    if (this.isTeam && this.password === undefined && /password|login|authentication/i.test(message)) {
      return `${message} — no password is stored for this database: run "Agent Ledger: Set Database Password"`;
    }
    return message;
  }

  /** Closes and opens again (the database setting or its password changed). */
  reopen(): void {
    if (this.isDisposed) return;
    const wasOpen = this._services !== undefined || this._state === 'failed';
    this.closeServices();
    if (wasOpen) this._onDidChange.fire({ ledger: this, reason: 'closed' });
    void this.open({ retry: true });
  }

  /** Tells the views to read again (the database is back after an outage). */
  refresh(): void {
    if (this._services) this._onDidChange.fire({ ledger: this, reason: 'store', external: true });
  }

  private closeIfGone(): void {
    if (this.isDisposed || this.exists() || !this._services) return;
    this.log.info(`[${this.name}] the ledger store was removed; closing it`);
    this.closeServices();
    this._onDidChange.fire({ ledger: this, reason: 'closed' });
  }

  private closeServices(): void {
    this.storeSubscription?.dispose();
    this.storeSubscription = undefined;
    void this._services?.dispose();
    this._services = undefined;
    this._tree = undefined;
    this._state = 'absent';
  }
}
