import * as vscode from 'vscode';
import { Commands } from '../commands/commandIds';
import { Disposable } from '../lifecycle';
import type { FolderLedger } from '../ledger/folderLedger';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';

export type DatabaseState = 'connecting' | 'connected' | 'reconnecting' | 'offline';

/** The team ledger of one folder as the status bar sees it (tests read it through the API). */
export interface DatabaseStatus {
  folder: string;
  state: DatabaseState;
  /** Why it is offline (the password never appears). */
  reason?: string;
}

interface Tracked {
  state: DatabaseState;
  reason?: string;
  /** When the folder is next checked (ms since epoch). */
  nextCheck: number;
  /** Failed opens in a row (the wait before the next one doubles, up to 30 s). */
  failures: number;
  checking: boolean;
}

/** A probe slower than this means the server is not answering: show `reconnecting`. */
const slowProbeMs = 1_500;
const connectedEveryMs = 5_000;
const offlineEveryMs = 2_000;
const maxBackoffMs = 30_000;

/**
 * The team ledger's connection in the status bar — `connected`, `reconnecting`, or `offline`
 * with the reason in the tooltip — shown only when a folder uses `agentLedger.database`. It
 * checks the database every few seconds with a one-row read, reopens a ledger that could not be
 * opened (backing off up to 30 s), and when the server answers again tells the views to read
 * again: recovery needs nobody.
 */
export class DatabaseStatusBar extends Disposable {
  private readonly item = this._register(
    vscode.window.createStatusBarItem('agentLedger.database', vscode.StatusBarAlignment.Left, 49),
  );
  private readonly tracked = new Map<FolderLedger, Tracked>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly registry: LedgerRegistry,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.item.name = 'Agent Ledger: team ledger';
    this.item.command = Commands.SetDatabasePassword;
    this._register(registry.onDidChange((e) => this.onLedgerChange(e.ledger, e.reason)));
    this._register(registry.onDidChangeFolders(() => this.tick()));
    this._register(registry.database.onDidChange(() => this.tick()));
    this.timer = setInterval(() => this.tick(), 1_000);
    this._register({ dispose: () => clearInterval(this.timer) });
    this.tick();
  }

  /** Each team ledger's state (tests). */
  describe(): { text: string | undefined; folders: DatabaseStatus[] } {
    return {
      text: this.item.text || undefined,
      folders: [...this.tracked].map(([ledger, t]) => ({
        folder: ledger.root,
        state: t.state,
        ...(t.reason ? { reason: t.reason } : {}),
      })),
    };
  }

  private onLedgerChange(ledger: FolderLedger, reason: string): void {
    const t = this.tracked.get(ledger);
    if (!t) return this.tick();
    if (reason === 'opened') this.set(ledger, t, 'connected');
    else if (reason === 'failed') this.fail(ledger, t, ledger.error);
    else if (reason === 'closed' && t.state === 'connected') this.set(ledger, t, 'connecting');
  }

  private tick(): void {
    const team = this.registry.all().filter((l) => l.isTeam);
    for (const ledger of [...this.tracked.keys()]) if (!team.includes(ledger)) this.tracked.delete(ledger);
    for (const ledger of team) {
      let t = this.tracked.get(ledger);
      if (!t) {
        t = { state: ledger.state === 'open' ? 'connected' : 'connecting', nextCheck: 0, failures: 0, checking: false };
        this.tracked.set(ledger, t);
      }
      if (!t.checking && Date.now() >= t.nextCheck) void this.check(ledger, t);
    }
    this.render();
  }

  private async check(ledger: FolderLedger, t: Tracked): Promise<void> {
    t.checking = true;
    try {
      const services = ledger.services;
      if (!services) {
        // Not open (never, or it failed): open it; the engine retries while the server is away.
        const opened = await ledger.open({ retry: true });
        if (opened) this.set(ledger, t, 'connected');
        else if (ledger.state === 'failed') this.fail(ledger, t, ledger.error);
        return;
      }
      const slow = setTimeout(() => {
        if (t.state === 'connected') this.set(ledger, t, 'reconnecting');
      }, slowProbeMs);
      try {
        await services.engine.read((db) => db.get('SELECT 1 AS ok'));
      } finally {
        clearTimeout(slow);
      }
      if (ledger.services !== services) return; // reopened meanwhile: its own events say how it went
      const wasDown = t.state === 'offline' || t.state === 'reconnecting';
      this.set(ledger, t, 'connected');
      if (wasDown) {
        this.log.info(`[${ledger.name}] the team ledger's database answers again`);
        ledger.refresh();
      }
    } catch (err) {
      this.fail(ledger, t, err);
    } finally {
      t.checking = false;
      t.nextCheck =
        Date.now() +
        (t.state === 'connected'
          ? connectedEveryMs
          : Math.min(maxBackoffMs, offlineEveryMs * 2 ** Math.min(t.failures, 4)));
      this.render();
    }
  }

  private fail(ledger: FolderLedger, t: Tracked, err: unknown): void {
    const reason = ledger.messageOf(err ?? 'unknown error').slice(0, 300);
    if (t.state !== 'offline' || t.reason !== reason)
      this.log.warn(`[${ledger.name}] the team ledger's database is offline: ${reason}`);
    t.failures++;
    this.set(ledger, t, 'offline', reason);
  }

  private set(_ledger: FolderLedger, t: Tracked, state: DatabaseState, reason?: string): void {
    t.state = state;
    t.reason = state === 'offline' ? reason : undefined;
    if (state === 'connected') t.failures = 0;
    this.render();
  }

  private render(): void {
    const all = [...this.tracked];
    if (all.length === 0) {
      this.item.hide();
      this.item.text = '';
      return;
    }
    const worst =
      (['offline', 'reconnecting', 'connecting', 'connected'] as const).find((s) =>
        all.some(([, t]) => t.state === s),
      ) ?? 'connected';
    const icon = {
      connected: '$(database)',
      connecting: '$(sync~spin)',
      reconnecting: '$(sync~spin)',
      offline: '$(debug-disconnect)',
    }[worst];
    this.item.text = `${icon} Team ledger: ${worst}`;
    const lines = all.map(([ledger, t]) => `${ledger.name}: ${t.state}${t.reason ? ` — ${t.reason}` : ''}`);
    this.item.tooltip = `Agent Ledger's team ledger on PostgreSQL (agentLedger.database)\n${lines.join('\n')}\nClick to set the database password.`;
    this.item.backgroundColor =
      worst === 'offline' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = { label: `Team ledger: ${worst}` };
    this.item.show();
  }
}
