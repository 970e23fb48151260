import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunnerProcess, RunnerProcessEvent } from '../../app/runner/runnerProcess';
import { LedgerError } from '../../core/errors';
import { Disposable } from '../lifecycle';
import type { FolderLedger } from '../ledger/folderLedger';
import { loadDomain } from '../ledger/loadDomain';
import { worktreesDirSetting } from '../worktreesSetting';
import type { LedgerDatabase } from '../ledger/ledgerDatabase';

/** One folder's runner as the editor started it. */
interface FolderRunner {
  readonly ledger: FolderLedger;
  readonly process: RunnerProcess;
  /** Runs it launched or adopted and that have not ended: execution id → agent and project. */
  readonly agents: Map<string, { agentId: string; projectId: string }>;
  stopping: boolean;
}

/** What the status bar says: no runner, runners polling with nothing to do, or agents running. */
export type RunnerSummary =
  { state: 'stopped' } | { state: 'polling'; folders: number } | { state: 'running'; folders: number; agents: number };

/**
 * Start Runner / Stop Runner: `agent-ledger runner` of a workspace folder as a child process of
 * the extension host — the same runner a terminal runs, so one implementation launches agents,
 * whoever starts it, and a runner that misbehaves never takes the editor with it. It cannot
 * outlive the window: closing the window stops it (and its agents, each leaving its execution
 * log), and if the extension host dies instead, the runner sees its stdin close and stops itself.
 */
export class RunnerController extends Disposable {
  private readonly runners = new Map<string, FolderRunner>();
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this._onDidChange.event;

  constructor(
    private readonly extensionPath: string,
    private readonly log: vscode.LogOutputChannel,
    private readonly database: LedgerDatabase,
  ) {
    super();
    // Disposal cannot wait: the stop is sent now, and the stdin pipe closing with this process backs it up.
    this._register({ dispose: () => void this.stopAll() });
    // Menus show Start Runner or Stop Runner by this key (package.json `when`).
    this._register(
      this.onDidChange(
        () => void vscode.commands.executeCommand('setContext', 'agentLedger.runnerRunning', this.runners.size > 0),
      ),
    );
  }

  isRunning(ledger: FolderLedger): boolean {
    return this.runners.has(ledger.root);
  }

  /** The runner process of a folder, for tests and the log. */
  pidOf(ledger: FolderLedger): number | undefined {
    return this.runners.get(ledger.root)?.process.pid;
  }

  /** How many agents the runner of a folder runs now (0 when it is not running). */
  agentsOf(ledger: FolderLedger): number {
    return this.runners.get(ledger.root)?.agents.size ?? 0;
  }

  summary(): RunnerSummary {
    const live = [...this.runners.values()];
    if (live.length === 0) return { state: 'stopped' };
    const agents = live.reduce((n, r) => n + r.agents.size, 0);
    return agents > 0 ? { state: 'running', folders: live.length, agents } : { state: 'polling', folders: live.length };
  }

  /** Starts the runner of a folder (its ledger must exist). Resolves once its process runs. */
  async start(ledger: FolderLedger): Promise<void> {
    if (this.runners.has(ledger.root)) return;
    const services = await ledger.require();
    const { startRunnerProcess } = loadDomain();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    // The editor's runtime runs the CLI as plain Node (and the agents' ledger servers with it).
    env.ELECTRON_RUN_AS_NODE = '1';
    // A team ledger (agentLedger.database): the runner, and the ledger servers of the agents it
    // launches, reach it by environment; the password from the secret storage never in argv.
    const team = await this.database.connection(ledger.folder);
    if (team) {
      env.AGENT_LEDGER_DB = team.url;
      delete env.PGPASSWORD;
      if (team.password !== undefined) env.AGENT_LEDGER_DB_PASSWORD = team.password;
      else delete env.AGENT_LEDGER_DB_PASSWORD;
    }
    let proc: RunnerProcess;
    try {
      proc = await startRunnerProcess({
        node: process.execPath,
        cliPath: path.join(this.extensionPath, 'dist', 'cli.js'),
        workspace: ledger.root,
        logDir: path.join(services.paths.dataDir, 'runs'),
        env,
        worktreesDir: worktreesDirSetting(),
      });
    } catch (err) {
      if (err instanceof Error && (err as { reason?: string }).reason === 'duplicateId') {
        throw new LedgerError(
          'InvalidStatus',
          `A runner started by another window is already running for ${ledger.name}: stop it there.`,
        );
      }
      throw err;
    }
    const runner: FolderRunner = { ledger, process: proc, agents: new Map(), stopping: false };
    this.runners.set(ledger.root, runner);
    this.log.info(`[${ledger.name}] runner started (pid ${proc.pid}; its log: ${proc.logFile})`);
    proc.onDidEmit((e) => this.onEvent(runner, e));
    void proc.exited.then((exit) => {
      this.runners.delete(ledger.root);
      const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.exitCode}`;
      if (runner.stopping) {
        this.log.info(`[${ledger.name}] runner stopped (${how})`);
      } else {
        this.log.error(`[${ledger.name}] the runner stopped by itself (${how}): ${exit.tail.slice(-5).join(' | ')}`);
        void vscode.window
          .showErrorMessage(
            `Agent Ledger: the runner of ${ledger.name} stopped (${how}). See the Agent Ledger log.`,
            'Show Log',
          )
          .then((pick) => {
            if (pick) this.log.show();
          });
      }
      this._onDidChange.fire();
    });
    this._onDidChange.fire();
  }

  /** Stops a folder's runner and, through it, its agents; resolves once it has exited. */
  async stop(ledger: FolderLedger): Promise<boolean> {
    const runner = this.runners.get(ledger.root);
    if (!runner) return false;
    runner.stopping = true;
    this._onDidChange.fire();
    this.log.info(`[${ledger.name}] stopping the runner and its ${runner.agents.size} agent(s)…`);
    await runner.process.stop();
    return true;
  }

  /** Stops every runner this window started (Stop Runner, closing the window). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.runners.values()].map((r) => this.stop(r.ledger)));
  }

  /** Folders whose runner runs now. */
  folders(): FolderLedger[] {
    return [...this.runners.values()].map((r) => r.ledger);
  }

  private onEvent(runner: FolderRunner, e: RunnerProcessEvent): void {
    const where = `[${runner.ledger.name}] runner:`;
    switch (e.kind) {
      case 'launched':
      case 'adopted':
        runner.agents.set(e.instance.executionId, { agentId: e.instance.agentId, projectId: e.instance.projectId });
        this.log.info(
          `${where} ${e.kind} ${e.instance.agentId} in ${e.instance.projectId} (${e.instance.executionId}, pid ${e.instance.pid})`,
        );
        break;
      case 'ended': {
        runner.agents.delete(e.instance.executionId);
        const how = e.exit.signal ? `killed by ${e.exit.signal}` : `exit ${e.exit.exitCode}`;
        this.log.info(
          `${where} ${e.instance.agentId} in ${e.instance.projectId} ended (${e.instance.executionId}: ${how}${e.exit.limit ? `, ${e.exit.limit} limit` : ''})`,
        );
        break;
      }
      case 'launchFailed':
        this.log.warn(`${where} could not launch ${e.agentId} in ${e.projectId}: ${e.message} (cooling down)`);
        break;
      case 'error':
        this.log.error(`${where} ${e.message}`);
        break;
      case 'stderr':
        this.log.info(`${where} ${e.message}`);
        break;
    }
    this._onDidChange.fire();
  }
}
