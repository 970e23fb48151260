import * as vscode from 'vscode';
import { plural } from '../../core/format';
import { Commands } from '../commands/commandIds';
import { Disposable } from '../lifecycle';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import type { RunnerController } from '../runner/runnerController';

/**
 * The runner in the status bar, and its switch: `$(debug-start) Runner` when stopped,
 * `$(radio-tower) Runner: polling`, `$(sync~spin) Runner: 2 agents running`. A click starts or
 * stops it (Agent Ledger: Toggle Runner). Shown once a folder of the window holds a ledger, or
 * while a runner runs.
 */
export class RunnerStatusBar extends Disposable {
  private readonly item = this._register(
    vscode.window.createStatusBarItem('agentLedger.runner', vscode.StatusBarAlignment.Left, 49),
  );

  constructor(
    private readonly runners: RunnerController,
    private readonly registry: LedgerRegistry,
  ) {
    super();
    this.item.name = 'Agent Ledger: runner';
    this.item.command = Commands.ToggleRunner;
    this._register(runners.onDidChange(() => this.update()));
    this._register(registry.onDidChange((e) => e.reason !== 'store' && this.update()));
    this._register(registry.onDidChangeFolders(() => this.update()));
    this.update();
  }

  /** What the entry shows now, or undefined while hidden (tests). */
  get text(): string | undefined {
    return this.visible ? this.item.text : undefined;
  }

  private visible = false;

  private update(): void {
    const s = this.runners.summary();
    const folders = s.state === 'stopped' ? '' : s.folders > 1 ? ` in ${plural(s.folders, 'folder')}` : '';
    switch (s.state) {
      case 'stopped':
        this.item.text = '$(debug-start) Runner';
        this.item.tooltip =
          'Agent Ledger runner: stopped. Click to start it: it launches the agent of each project that has an in-progress task assigned.';
        break;
      case 'polling':
        this.item.text = '$(radio-tower) Runner: polling';
        this.item.tooltip = `Agent Ledger runner: polling${folders}, no agent running. Click to stop it.`;
        break;
      case 'running':
        this.item.text = `$(sync~spin) Runner: ${plural(s.agents, 'agent')} running`;
        this.item.tooltip = `Agent Ledger runner: ${plural(s.agents, 'agent')} running${folders}. Click to stop the runner and its agents.`;
        break;
    }
    this.item.accessibilityInformation = { label: this.item.tooltip };
    const show = s.state !== 'stopped' || this.registry.all().some((l) => l.state === 'open' || l.exists());
    this.visible = show;
    if (show) this.item.show();
    else this.item.hide();
  }
}
