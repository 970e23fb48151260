import * as vscode from 'vscode';
import { LedgerError } from '../../core/errors';
import { plural } from '../../core/format';
import type { FolderLedger } from '../ledger/folderLedger';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import type { RunnerController } from '../runner/runnerController';
import type { ExecutionLogDocuments } from '../runner/executionLogDocuments';
import type { ExecutionNode, InstanceNode } from '../views/agents/runtimeItems';

/** A folder a runner command acts on: a folder URI (the explorer), `{ folder }` (tests), or nothing (the palette: the only folder, or a pick). */
export type RunnerArg = vscode.Uri | { folder: string } | undefined;

/** A run a command acts on: a view row, or `{ folder, executionId }` (tests, other extensions). */
export type ExecutionArg = InstanceNode | ExecutionNode | { folder: string; executionId: string };

/** Start Runner, Stop Runner, the status bar's toggle, Stop Instance, Open Execution Log. */
export class RunnerCommands {
  constructor(
    private readonly registry: LedgerRegistry,
    private readonly runners: RunnerController,
    private readonly logs: ExecutionLogDocuments,
  ) {}

  /** Starts the runner of a folder; says so when no project has an agent to launch yet. */
  async start(arg: RunnerArg): Promise<{ folder: string; pid: number | undefined } | undefined> {
    const ledger = await this.folder(arg, 'Start the runner of which folder?', (l) => !this.runners.isRunning(l));
    if (!ledger) return undefined;
    if (this.runners.isRunning(ledger)) {
      void vscode.window.showInformationMessage(`The runner of ${ledger.name} is already running.`);
      return { folder: ledger.root, pid: this.runners.pidOf(ledger) };
    }
    const services = await ledger.require();
    await this.runners.start(ledger);
    const projects = await services.projects.activeWithAgents().catch(() => []);
    if (!projects.some((p) => p.agents.length > 0)) {
      void vscode.window.showInformationMessage(
        `The runner of ${ledger.name} is polling, but no project has an agent assigned yet: create one with \`agent-ledger project create <name>\` and \`agent-ledger project add-agent <project> <agent>\`, then assign it a task.`,
      );
    }
    return { folder: ledger.root, pid: this.runners.pidOf(ledger) };
  }

  /** Stops a folder's runner (every runner when given nothing and several run). */
  async stop(arg: RunnerArg): Promise<{ stopped: string[] }> {
    const running = this.runners.folders();
    if (running.length === 0) {
      void vscode.window.showInformationMessage('No runner is running in this window.');
      return { stopped: [] };
    }
    const targets = arg ? [this.ledgerOf(arg)] : running;
    // Stopping a runner stops the agents it runs: a person says so first (one click on the status bar must not).
    const agents = targets.reduce((n, l) => n + this.runners.agentsOf(l), 0);
    if (agents > 0) {
      const answer = await vscode.window.showWarningMessage(
        `Stop the runner? ${plural(agents, 'agent')} ${agents === 1 ? 'is' : 'are'} working and will be stopped.`,
        {
          modal: true,
          detail:
            'Their processes are ended and their execution logs record it; their tasks stay in progress, and a runner started again launches them. To stop one agent and hold its task, use Stop Instance.',
        },
        'Stop Runner and Agents',
      );
      if (answer !== 'Stop Runner and Agents') return { stopped: [] };
    }
    await Promise.all(targets.map((l) => this.runners.stop(l)));
    return { stopped: targets.map((l) => l.root) };
  }

  /** The status bar's click: stop what runs, else start. */
  async toggle(): Promise<unknown> {
    return this.runners.folders().length > 0 ? this.stop(undefined) : this.start(undefined);
  }

  /** Stops one running agent instance (after asking, from the view): its runner records the end in its execution log. */
  async stopInstance(arg: ExecutionArg | undefined): Promise<{ executionId: string; liveness: string } | undefined> {
    if (!arg)
      throw new LedgerError(
        'ValidationError',
        'Stop Instance acts on a running instance of the Agents & Sessions view.',
      );
    const { ledger, executionId } = this.run(arg);
    if ('kind' in arg && arg.kind === 'instance') {
      const i = arg.instance;
      const answer = await vscode.window.showWarningMessage(
        `Stop ${i.agentId} in ${i.projectName}${i.taskId ? ` (working on ${i.taskId})` : ''}?`,
        {
          modal: true,
          detail:
            'The agent process is ended (SIGTERM, then SIGKILL after a few seconds); its execution log records that you stopped it, and its task is held: no runner launches it again until you Resume it.',
        },
        'Stop Instance',
      );
      if (answer !== 'Stop Instance') return undefined;
    }
    const services = await ledger.require();
    const result = await services.instances.stop(executionId);
    void vscode.window.setStatusBarMessage(`Agent Ledger: stopped ${result.executionId}`, 5000);
    return result;
  }

  /** Opens a run's log in an editor tab, following it while the run goes. */
  async openExecutionLog(arg: ExecutionArg | undefined): Promise<{ uri: string } | undefined> {
    const target = arg ? this.run(arg) : await this.pickRun();
    if (!target) return undefined;
    const editor = await this.logs.show(target.ledger.root, target.executionId);
    return { uri: editor.document.uri.toString() };
  }

  private run(arg: ExecutionArg): { ledger: FolderLedger; executionId: string } {
    if ('kind' in arg) {
      const executionId = arg.kind === 'instance' ? arg.instance.executionId : arg.log.executionId;
      if (!executionId) throw new LedgerError('InvalidStatus', 'This instance has not started its run yet.');
      return { ledger: arg.ledger, executionId };
    }
    return { ledger: this.ledgerOf({ folder: arg.folder }), executionId: arg.executionId };
  }

  private async pickRun(): Promise<{ ledger: FolderLedger; executionId: string } | undefined> {
    const ledger = await this.registry.pick(undefined, 'Open an execution log of which folder?');
    if (!ledger) return undefined;
    const logs = await (await ledger.require()).executions.list({ limit: 100 });
    if (logs.length === 0) {
      void vscode.window.showInformationMessage(`No agent has run in ${ledger.name} yet.`);
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      logs.map((l) => ({
        label: l.executionId,
        description: `${l.agentId} · ${l.taskId ?? 'no task'} · ${l.status}`,
        executionId: l.executionId,
      })),
      { placeHolder: `Open which run's log? (${plural(logs.length, 'run')})` },
    );
    return picked ? { ledger, executionId: picked.executionId } : undefined;
  }

  private async folder(
    arg: RunnerArg,
    placeHolder: string,
    wanted: (l: FolderLedger) => boolean,
  ): Promise<FolderLedger | undefined> {
    if (arg) return this.ledgerOf(arg);
    const candidates = this.registry.all().filter((l) => l.folder.uri.scheme === 'file');
    const free = candidates.filter(wanted);
    if (free.length === 1) return free[0];
    return this.registry.pick(undefined, placeHolder);
  }

  private ledgerOf(arg: vscode.Uri | { folder: string }): FolderLedger {
    const ledger = arg instanceof vscode.Uri ? this.registry.get(arg) : this.registry.byPath(arg.folder);
    if (!ledger)
      throw new LedgerError(
        'NotFound',
        `${arg instanceof vscode.Uri ? arg.fsPath : arg.folder} is not a folder of this window's workspace`,
      );
    return ledger;
  }
}
