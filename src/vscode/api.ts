import type { BoardModel, PipelineModel, PlanGraphViewModel, TaskDetailModel } from '../shared/protocol';
import type { LedgerState } from './ledger/folderLedger';
import type { DatabaseStatus } from './statusBar/databaseStatusBar';

/**
 * What `activate()` returns. `activation` is the extension's own cost (measured around module
 * load and `activate`); `testing` lets the in-host tests and the benchmark look at what the UI
 * shows without scraping it. Neither is a stable API for other extensions.
 */
export interface AgentLedgerApi {
  readonly version: string;
  readonly activation: {
    /** Evaluating dist/extension.js: from its first line to the end of its top-level code. */
    readonly moduleLoadMs: number;
    /** `activate` itself. */
    readonly activateMs: number;
  };
  readonly testing: {
    /** The Tasks view's rows, depth-first, indented by two spaces per level: `label — description`. */
    tasksView(): Promise<string[]>;
    /** The Memory Bank view's rows, the same way: category, then `title — status · summary`. */
    memoryView(): Promise<string[]>;
    /** The Agents & Sessions view's rows: agent, then `task title — task-N · status · branch · time`. */
    agentsView(): Promise<string[]>;
    /** The Pipelines view's rows: pipeline, then its phases (`label — description`), then the implementation's tasks. */
    pipelinesView(): Promise<string[]>;
    /** The Pipelines view's badge: how many pipelines wait for a person (0: no badge). */
    pipelinesBadge(): number;
    /** The model the panel of a pipeline (`.specs/<name>`) last showed, if it is open. */
    pipeline(folder: string, workspace: string): PipelineModel | undefined;
    /** Every "waits for your decision" notification shown so far. */
    pipelineNotifications(): readonly string[];
    statusBarText(): string | undefined;
    /** The team ledger's status bar entry and each folder's connection (empty when no folder sets agentLedger.database). */
    databaseStatus(): { text: string | undefined; folders: DatabaseStatus[] };
    /** The runner's status-bar entry (`$(radio-tower) Runner: polling`…), undefined while hidden. */
    runnerStatusBarText(): string | undefined;
    /** The pid of the runner process this window started for a folder, if one runs. */
    runnerPid(folder: string): number | undefined;
    /** The text of an execution's log tab, if open (it grows while the run goes). */
    executionLogText(folder: string, executionId: string): string | undefined;
    /** The model the detail panel of a task last showed, if it is open. */
    taskDetail(folder: string, taskId: number): TaskDetailModel | undefined;
    /** Every review notification shown so far. */
    notifications(): readonly string[];
    ledgerState(folder: string): LedgerState | undefined;
    /** The Blackboard view's rows: namespace, then `key — value · expires …`, then its facts when expanded. */
    blackboardView(): Promise<string[]>;
    /** The Board of a folder, if open: the model it last showed and the first renders its webview reported. */
    board(
      folder: string,
    ): { model: BoardModel | undefined; paints: { ms: number; cards: number; rendered: number }[] } | undefined;
    /** The model the plan graph panel of a workflow last showed, if it is open. */
    planGraph(folder: string, workflowId: number): PlanGraphViewModel | undefined;
    /** The Explorer decoration of a file or folder (rolled up again first), or undefined. */
    pressure(
      fsPath: string,
    ): Promise<{ badge?: string; tooltip?: string; color?: string; propagate?: boolean } | undefined>;
  };
}
