import * as vscode from 'vscode';
import { LedgerError } from '../../core/errors';
import { Settings } from '../constants';
import { Disposable } from '../lifecycle';

/** Where a folder's ledger lives when it is a team ledger on PostgreSQL. */
export interface DatabaseConnection {
  /** `postgres://user@host:5432/database`, never with a password. */
  url: string;
  /** From VS Code's secret storage; undefined when none was set (the server may need none). */
  password?: string;
}

/**
 * The `agentLedger.database` setting and its password. The URL is a setting (a folder may name
 * its own); the password lives only in VS Code's secret storage (keyed by the URL), set with
 * *Agent Ledger: Set Database Password* — never in settings.json, an argument or a log. It
 * reaches this window's services as an option and the MCP servers VS Code starts through their
 * environment.
 */
export class LedgerDatabase extends Disposable {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  /** The setting or a stored password changed: ledgers reopen, MCP definitions refresh. */
  readonly onDidChange = this._onDidChange.event;
  /** Bumped when a password changes (part of the MCP definitions' version, so VS Code restarts its servers). */
  private _generation = 0;

  constructor(private readonly secrets: vscode.SecretStorage) {
    super();
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${Settings.Section}.${Settings.Database}`)) this._onDidChange.fire();
      }),
    );
    this._register(
      secrets.onDidChange((e) => {
        if (!e.key.startsWith(secretPrefix)) return;
        this._generation++;
        this._onDidChange.fire();
      }),
    );
  }

  get generation(): number {
    return this._generation;
  }

  /**
   * The database URL set for `folder`, or undefined for the embedded store. A URL carrying a
   * password is refused (ConfigError): the password belongs in the secret storage.
   */
  url(folder: vscode.WorkspaceFolder | undefined): string | undefined {
    const raw = vscode.workspace
      .getConfiguration(Settings.Section, folder?.uri)
      .get<string>(Settings.Database, '')
      .trim();
    if (!raw) return undefined;
    checkDatabaseUrl(raw);
    return raw;
  }

  /** The URL and its stored password, or undefined when the folder uses the embedded store. */
  async connection(folder: vscode.WorkspaceFolder | undefined): Promise<DatabaseConnection | undefined> {
    const url = this.url(folder);
    if (!url) return undefined;
    const password = await this.secrets.get(secretKey(url));
    return { url, password: password || undefined };
  }

  /** Stores (or, given an empty string, forgets) the password of `url`. */
  async setPassword(url: string, password: string): Promise<void> {
    checkDatabaseUrl(url);
    if (password) await this.secrets.store(secretKey(url), password);
    else await this.secrets.delete(secretKey(url));
  }
}

const secretPrefix = 'agentLedger.database.password:';

/** One password per database (a folder may name another one). */
function secretKey(url: string): string {
  return secretPrefix + url;
}

/** A postgres:// URL without a password, or a ConfigError saying what to do. */
export function checkDatabaseUrl(raw: string): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new LedgerError(
      'ConfigError',
      `agentLedger.database is not a URL: give postgres://user@host:5432/database, or leave it empty for the embedded store`,
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new LedgerError(
      'ConfigError',
      `agentLedger.database must be a postgres:// URL (${url.protocol}// is not supported), or empty for the embedded store`,
    );
  }
  if (url.password || url.searchParams.has('password')) {
    throw new LedgerError(
      'ConfigError',
      'agentLedger.database holds a password: remove it from the setting and run "Agent Ledger: Set Database Password" (kept in VS Code\'s secret storage)',
    );
  }
}

/** `text` without the password (messages from the driver or the engine, before they are shown). */
export function withoutPassword(text: string, password: string | undefined): string {
  return password && password.length >= 3 ? text.split(password).join('***') : text;
}
