import * as vscode from 'vscode';
import type { AgentLedgerApi } from './api';
import { TaskCommands } from './commands/taskCommands';
import { TaskFormCommands } from './commands/taskFormCommands';
import { MemoryCommands } from './commands/memoryCommands';
import { SessionCommands } from './commands/sessionCommands';
import { PipelineCommands } from './commands/pipelineCommands';
import { registerCommands } from './commands/registerCommands';
import { snapshotScheme } from './constants';
import { SnapshotContentProvider } from './diff/snapshotDiff';
import { Disposable } from './lifecycle';
import { LedgerRegistry } from './ledger/ledgerRegistry';
import { McpCommands } from './mcp/mcpCommands';
import { LedgerMcpProvider } from './mcp/mcpProvider';
import { PipelineNotifier } from './notifications/pipelineNotifier';
import { ReviewNotifier } from './notifications/reviewNotifier';
import { RunningTaskStatusBar } from './statusBar/runningTaskStatusBar';
import { TasksView } from './views/tasks/tasksView';
import { MemoryView } from './views/memory/memoryView';
import { AgentsView } from './views/agents/agentsView';
import { PipelinesView } from './views/pipelines/pipelinesView';
import { PipelineWatcher } from './views/pipelines/pipelineWatcher';
import { taskDetailPanels } from './webviews/taskDetail/taskDetailPanels';
import type { TaskDetailPanels } from './webviews/taskDetail/taskDetailPanels';
import { pipelinePanels } from './webviews/pipeline/pipelinePanels';
import type { PipelinePanels } from './webviews/pipeline/pipelinePanels';
import { LivePanels } from './webviews/livePanels';
import { BoardPanel } from './webviews/board/boardPanel';
import { PlanGraphPanel } from './webviews/planGraph/planGraphPanel';
import { BlackboardView } from './views/blackboard/blackboardView';
import { BoardCommands } from './commands/boardCommands';
import { DatabaseCommands } from './commands/databaseCommands';
import { LedgerDatabase } from './ledger/ledgerDatabase';
import { DatabaseStatusBar } from './statusBar/databaseStatusBar';
import { WebviewTypes } from './constants';
import { RunnerController } from './runner/runnerController';
import { RunnerStatusBar } from './statusBar/runnerStatusBar';
import { ExecutionLogDocuments } from './runner/executionLogDocuments';
import { RunnerCommands } from './commands/runnerCommands';
import { PressureDecorations } from './decorations/pressureDecorations';

/**
 * The extension's composition root for the VS Code layer: one {@link LedgerRegistry} (a ledger
 * per folder) that every view, panel, the status bar and the notifier share. Construction only
 * registers things — no store is opened here (see {@link start}).
 */
export class AgentLedgerExtension extends Disposable {
  readonly log: vscode.LogOutputChannel;
  readonly registry: LedgerRegistry;
  readonly tasksView: TasksView;
  readonly memoryView: MemoryView;
  readonly agentsView: AgentsView;
  readonly pipelinesView: PipelinesView;
  readonly pipelinePanels: PipelinePanels;
  readonly pipelineNotifier: PipelineNotifier;
  readonly panels: TaskDetailPanels;
  readonly statusBar: RunningTaskStatusBar;
  readonly notifier: ReviewNotifier;
  readonly mcp: LedgerMcpProvider;
  readonly boards: LivePanels<BoardPanel, 'board'>;
  readonly planGraphs: LivePanels<PlanGraphPanel, number>;
  readonly blackboardView: BlackboardView;
  readonly databaseStatus: DatabaseStatusBar;
  /** Start Runner / Stop Runner: the runner of a folder as a child process of this window. */
  readonly runners: RunnerController;
  readonly runnerStatusBar: RunnerStatusBar;
  readonly executionLogs: ExecutionLogDocuments;
  readonly pressure: PressureDecorations;

  constructor(private readonly context: vscode.ExtensionContext) {
    super();
    this.log = this._register(vscode.window.createOutputChannel('Agent Ledger', { log: true }));
    // The team ledger's URL (a setting) and password (secret storage), shared by the ledgers and the MCP servers.
    const database = this._register(new LedgerDatabase(context.secrets));
    this.registry = this._register(new LedgerRegistry(this.log, database));
    this.mcp = this._register(new LedgerMcpProvider(context.extensionPath, this.version, this.log, database));
    // The notifier subscribes first so it sees each ledger's `opened` before anything reads events.
    this.notifier = this._register(new ReviewNotifier(this.registry));
    this.tasksView = this._register(new TasksView(this.registry, this.log));
    this.memoryView = this._register(new MemoryView(this.registry, this.log));
    this.agentsView = this._register(new AgentsView(this.registry, this.log));
    // Every pipeline consumer listens to one watcher of each folder's PipelineService.onDidChange.
    const pipelineWatcher = this._register(new PipelineWatcher(this.registry));
    this.pipelineNotifier = this._register(new PipelineNotifier(pipelineWatcher, this.log));
    this.pipelinesView = this._register(new PipelinesView(this.registry, pipelineWatcher, this.log));
    this.pipelinePanels = this._register(pipelinePanels(context.extensionUri, pipelineWatcher, this.log));
    this.panels = this._register(taskDetailPanels(context.extensionUri, this.registry, this.log));
    this.blackboardView = this._register(new BlackboardView(this.registry, this.log));
    this.databaseStatus = this._register(new DatabaseStatusBar(this.registry, this.log));
    this.pressure = this._register(new PressureDecorations(this.registry, this.log));
    const uri = context.extensionUri;
    this.boards = this._register(
      new LivePanels(
        WebviewTypes.Board,
        this.registry,
        () => 'board',
        (ledger, _key, restored) => new BoardPanel(uri, this.log, ledger, restored),
        () => 'board' as const,
      ),
    );
    this.planGraphs = this._register(
      new LivePanels(
        WebviewTypes.PlanGraph,
        this.registry,
        String,
        (ledger, id: number, restored) => new PlanGraphPanel(uri, this.log, ledger, id, restored),
        (state) => (typeof state.workflowId === 'number' ? state.workflowId : undefined),
      ),
    );
    this.runners = this._register(new RunnerController(context.extensionPath, this.log, database));
    this.runnerStatusBar = this._register(new RunnerStatusBar(this.runners, this.registry));
    this.statusBar = this._register(
      new RunningTaskStatusBar(this.registry, {
        runsAgents: () => this.runners.summary().state === 'running',
        onDidChange: this.runners.onDidChange,
      }),
    );
    this.executionLogs = this._register(new ExecutionLogDocuments(this.registry));
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(snapshotScheme, new SnapshotContentProvider(this.registry)),
    );
    const tasks = new TaskCommands(this.registry, this.panels);
    const mcpCommands = new McpCommands(this.registry, this.mcp);
    const forms = {
      taskForms: new TaskFormCommands(this.registry),
      memory: new MemoryCommands(this.registry),
      sessions: new SessionCommands(this.registry),
    };
    const views = { memoryView: this.memoryView, agentsView: this.agentsView };
    const pipelines = {
      pipelines: new PipelineCommands(this.registry, this.pipelinePanels),
      pipelinesView: this.pipelinesView,
    };
    const board = {
      board: new BoardCommands(this.registry, this.boards, this.planGraphs),
      blackboardView: this.blackboardView,
    };
    const team = { database: new DatabaseCommands(this.registry) };
    const runner = new RunnerCommands(this.registry, this.runners, this.executionLogs);
    for (const d of registerCommands({
      registry: this.registry,
      tasks,
      mcp: mcpCommands,
      tasksView: this.tasksView,
      ...forms,
      ...views,
      ...pipelines,
      ...board,
      ...team,
      runner,
      log: this.log,
    }))
      this._register(d);
  }

  get version(): string {
    return (this.context.extension.packageJSON as { version?: string }).version ?? '0.0.0';
  }

  /**
   * After activation: folders that already hold a ledger open it in the background, so the
   * status bar and review notifications work without opening a view. Folders without one cost
   * nothing until an agent creates it (the file watcher notices).
   */
  start(): void {
    setTimeout(() => this.registry.openExisting(), 0);
  }

  api(activation: AgentLedgerApi['activation']): AgentLedgerApi {
    return {
      version: this.version,
      activation,
      testing: {
        tasksView: () => this.tasksView.describe(),
        memoryView: () => this.memoryView.describe(),
        agentsView: () => this.agentsView.describe(),
        pipelinesView: () => this.pipelinesView.describe(),
        pipelinesBadge: () => this.pipelinesView.badge,
        pipeline: (folder, workspace) => {
          const ledger = this.registry.byPath(folder);
          return ledger ? this.pipelinePanels.get(ledger, workspace)?.model : undefined;
        },
        pipelineNotifications: () => this.pipelineNotifier.shown,
        statusBarText: () => this.statusBar.text,
        databaseStatus: () => this.databaseStatus.describe(),
        runnerStatusBarText: () => this.runnerStatusBar.text,
        runnerPid: (folder) => {
          const ledger = this.registry.byPath(folder);
          return ledger ? this.runners.pidOf(ledger) : undefined;
        },
        executionLogText: (folder, executionId) => this.executionLogs.textOf(folder, executionId),
        taskDetail: (folder, taskId) => {
          const ledger = this.registry.byPath(folder);
          return ledger ? this.panels.get(ledger, taskId)?.model : undefined;
        },
        notifications: () => this.notifier.shown,
        ledgerState: (folder) => this.registry.byPath(folder)?.state,
        blackboardView: () => this.blackboardView.describe(),
        board: (folder) => {
          const ledger = this.registry.byPath(folder);
          const panel = ledger ? this.boards.get(ledger, 'board') : undefined;
          return panel ? { model: panel.model, paints: [...panel.paints] } : undefined;
        },
        planGraph: (folder, workflowId) => {
          const ledger = this.registry.byPath(folder);
          return ledger ? this.planGraphs.get(ledger, workflowId)?.model : undefined;
        },
        pressure: async (fsPath) => {
          await this.pressure.refresh();
          return this.pressure.decorationOf(vscode.Uri.file(fsPath));
        },
      },
    };
  }
}
