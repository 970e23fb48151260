/**
 * Messages between the extension host and its webviews: types only, imported by both sides
 * (src/vscode/webviews/** and webview-ui/**). Every webview speaks the same envelope:
 *
 *   webview → host: `{ type: 'ready' }` once its script runs, then its own requests;
 *   host → webview: nothing before `ready` (pull-request-github's habit), then its data.
 *
 * A new webview adds its name to {@link WebviewKind} and a pair of message unions below.
 *
 * The models reuse core's types (`import type` only, so nothing of core reaches the webview
 * bundle): one definition of a task status, an outcome, a board card or a pipeline phase.
 */
import type { BoardCard, BoardColumnId, BoardSnapshot } from '../core/board/boardModel';
import type { PlanGraphModel, PlanGraphNode } from '../core/board/planGraphLayout';
import type { PipelineStatus, PhaseStatus } from '../core/pipelines/engine/pipelineState';
import type { Finding, Severity } from '../core/pipelines/engine/verdict';
import type { PhaseView, PipelineArtifactView, TaskView } from '../core/pipelines/pipelineQueries';
import type { FileChanges } from '../core/ports/workspaceTruth';
import type { CompletionStatus, Outcome, TaskStatus } from '../core/tasks/taskModel';
import type { FileDiff } from '../core/tasks/fileDiff';
import type { ExecutionLog } from '../core/runtime/pm/runtimeContracts';
import type { PendingHandoff, RunningInstance } from '../core/runtime/agentInstances';
import type { CostTotals } from '../core/costs/costContracts';
import type { ActivityItem } from '../core/board/activity';

/** Which front end `webview-ui/main.ts` renders; the host writes it on `<body data-view>`. */
export type WebviewKind = 'taskDetail' | 'pipeline' | 'board' | 'planGraph' | 'runs' | 'agents' | 'memory';

/** Sent by every webview when its script has loaded and it can receive messages. */
export interface ReadyMessage {
  type: 'ready';
}

/** A view and what it shows: the web board's address (`#/task/12`) and where a link leads. */
export type ViewRoute =
  | { view: 'board' }
  | { view: 'taskDetail'; taskId: number }
  | { view: 'pipeline'; workspace: string }
  | { view: 'planGraph'; workflowId: number }
  | { view: 'runs'; run?: string }
  | { view: 'agents' }
  | { view: 'memory'; entry?: string };

/**
 * Host → view, in the web board: open another view (a card, a task, a pipeline was clicked). The
 * browser host hands it to its router; VS Code opens panels itself and never sends it.
 */
export interface NavigateMessage {
  type: 'navigate';
  to: ViewRoute;
}

/** What a host says of an action a person asked for: done, or the refusal's message. */
export interface ActedMessage {
  type: 'acted';
  ok: boolean;
  text: string;
}

/** The person using a view, as a host knows them (the web board's OS user), for what the view says. */
export interface ViewPerson {
  name: string;
}

// ---------------------------------------------------------------------------------------
// Task detail
// ---------------------------------------------------------------------------------------

export type TaskStatusName = TaskStatus;
export type CompletionName = CompletionStatus;
export type FileChangeKind = keyof FileChanges;

/** One changed file as the detail lists it. */
export interface ChangedFile {
  kind: FileChangeKind;
  /** Repository-relative path with `/` (the new path of a rename). */
  path: string;
  /** The old path of a rename. */
  from?: string;
  /** Outside every area the task declared (complete_task's scope check). */
  outOfScope: boolean;
  /** Other tasks working in the same tree at the same time that changed this file too (`task-4`); absent when none. */
  alsoChangedBy?: string[];
}

export interface TimelineItem {
  kind: 'milestone' | 'decision' | 'issue';
  id: number;
  /** ISO time. */
  at: string;
  /** milestone: message; decision: question; issue: description. */
  title: string;
  progress?: number | null;
  /** decision */
  category?: string;
  options?: string[];
  chosen?: string;
  reasoning?: string;
  tradeOffs?: string | null;
  /** issue */
  issueType?: string;
  resolution?: string;
  requiresHumanReview?: boolean;
}

export interface TaskRef {
  id: number;
  key: string;
  title: string;
  status: TaskStatusName;
  result: CompletionName | null;
}

/** Everything the task detail shows; built by the host from the ledger. */
export interface TaskDetailModel {
  /** The workspace folder's path: the webview keeps it (with the task id) to come back after a reload. */
  folder: string;
  folderName: string;
  task: TaskRef & {
    goal: string | null;
    description: string | null;
    areas: string[];
    progress: number | null;
    lastMilestone: string | null;
    assignee: string | null;
    priority: string;
    type: string;
    labels: string[];
    startedAt: string | null;
    completedAt: string | null;
    durationSeconds: number | null;
    snapshot: { type: 'git' | 'checksum'; id: string } | null;
    worktree: string | null;
  };
  workflow: { key: string; name: string } | null;
  parent: TaskRef | null;
  subTasks: TaskRef[];
  outcome: Outcome | null;
  timeline: TimelineItem[];
  /**
   * `recorded`: what complete_task measured; `live`: measured just now against the snapshot
   * (the task still runs); `none`: the task never started, so there is nothing to compare.
   */
  filesSource: 'recorded' | 'live' | 'none';
  files: ChangedFile[];
  warnings: string[];
  commits: { sha: string; subject: string }[];
  /** What the task's agent runs cost (null: no run recorded). */
  cost: CostTotals | null;
  /** Rewind is possible (a Git snapshot, not in a worktree). */
  canRewind: boolean;
  lastRewind: { at: string; paths: string[]; undoable: boolean } | null;
  /** A person stopped the task's run: no runner launches it until someone resumes it. */
  hold: { by: string; at: string } | null;
  /** The runner's last word on why it does not start the task now (null: nothing holds it). */
  waiting: { reason: string; detail: string; since: string } | null;
  /**
   * What waits for a person's Approve or Dismiss (null: nothing): the completion's manual review
   * and its reason, and the latest issue asking for a human review.
   */
  review: { manualReview: { reason: string | null } | null; issue: string | null } | null;
  /** A person's answer to this completion's review request (null: none yet, or none asked). */
  reviewed: { verdict: 'approved' | 'dismissed'; by: string; at: string; note: string | null } | null;
}

/** The exact diff of one file of a task (core/tasks/fileDiff.ts). */
export type FileDiffModel = FileDiff;

export type TaskDetailHostMessage =
  | { type: 'taskDetail'; model: TaskDetailModel }
  /** The live file list is being measured (running tasks). */
  | { type: 'busy'; busy: boolean }
  /** The answer to `openDiff` where the host shows diffs in the view itself (the web board). */
  | { type: 'fileDiff'; file: ChangedFile; diff: FileDiffModel }
  | ActedMessage
  | NavigateMessage
  | { type: 'error'; message: string };

export type TaskDetailWebviewMessage =
  | ReadyMessage
  /** VS Code opens its diff editor; the web board answers with `fileDiff`. */
  | { type: 'openDiff'; file: ChangedFile }
  | { type: 'openTask'; taskId: number }
  | { type: 'refresh' }
  | { type: 'rewind' }
  | { type: 'undoRewind' }
  | { type: 'exportWorkflow' }
  /** A person's change of the task, through the same service as task_update. */
  | { type: 'cancel' }
  | { type: 'assign'; agent: string }
  /** A person lets a held task run again (the same service as `agent-ledger task resume`). */
  | { type: 'resume' }
  /** A person answers the task's review requests (the same service as the Board's). */
  | { type: 'review'; verdict: 'approved' | 'dismissed'; note?: string };

// ---------------------------------------------------------------------------------------
// Pipelines
// ---------------------------------------------------------------------------------------

export type PipelineStatusName = PipelineStatus;
export type PipelinePhaseStatus = PhaseStatus;
export type FindingSeverity = Severity;
export type PipelineFinding = Finding;

/** An artifact of the pipeline folder; `path` is absolute (the host opens only paths of its own model). */
export type PipelineArtifact = PipelineArtifactView;

/** A phase as `PipelineService.detail` reads it, and what the editor adds. */
export interface PipelinePhaseItem extends PhaseView {
  /** A person's decision is awaited here (checkpoint, human gate or a revision limit). */
  waiting: boolean;
  /** For a checkpoint: the last decision taken on it. */
  decision: { decision: string; by: string; at: string } | null;
}

/** A task of the pipeline's task list, and whether a human gate waits on it. */
export interface PipelineTaskItem extends TaskView {
  waiting: boolean;
}

export interface PipelineDecisionItem {
  /** The checkpoint or gate (`checkpoint-a`, `task-2`, `phase-3b-retry-limit`). */
  name: string;
  /** What a person reads: "Checkpoint A: Human Reviews Design". */
  label: string;
  kind: 'checkpoint' | 'human_gate';
  decision: string;
  comment: string | null;
  by: string;
  /** `editor`, `cli`, `agent` or `auto`. */
  via: string;
  at: string;
}

/** The checkpoint or human gate a person decides now. */
export interface PipelineWaiting {
  kind: 'checkpoint' | 'human_gate';
  /** Sent back with the decision: the engine refuses it if another checkpoint waits by now. */
  name: string;
  label: string;
  phase: string;
  options: string[];
  /** The engine's text for the person (what to read, the findings, what each answer does). */
  presentToUser: string;
  /** When the agent asked (null: the engine is there but the agent has not asked yet). */
  requestedAt: string | null;
  /** A review loop hit its limit: approve accepts the work as it is, reject abandons the pipeline. */
  retryLimit: boolean;
  /** Where a rejection sends the pipeline back to (a phase label), for an ordinary checkpoint. */
  rejectTo: string | null;
  /** The artifacts the checkpoint asks the person to read. */
  present: PipelineArtifact[];
}

/** Everything the pipeline webview shows; built by the host from `PipelineService.detail`. */
export interface PipelineModel {
  folder: string;
  folderName: string;
  /** `.specs/<yyyymmdd>-<slug>`, relative to the folder: the webview keeps it to come back after a reload. */
  workspace: string;
  title: string;
  status: PipelineStatusName;
  effort: string;
  flowTemplate: string;
  branch: string | null;
  source: { type: string; url: string | null };
  currentPhase: string;
  currentLabel: string;
  totals: { tokens: number; durationMs: number };
  /** Tokens and time per model, most tokens first. */
  models: { model: string; tokens: number; durationMs: number; runs: number }[];
  waiting: PipelineWaiting | null;
  phases: PipelinePhaseItem[];
  tasks: PipelineTaskItem[];
  decisions: PipelineDecisionItem[];
  artifacts: PipelineArtifact[];
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

export type PipelineHostMessage =
  | { type: 'pipeline'; model: PipelineModel }
  /** The outcome of a `decide` (a refusal says why, e.g. a stale checkpoint). */
  | { type: 'decided'; ok: boolean; text: string }
  /** The answer to `openArtifact` where the host shows documents in the view (the web board, an MCP App). */
  | { type: 'artifact'; name: string; path: string; text: string | null }
  | NavigateMessage
  | { type: 'error'; message: string };

export type PipelineWebviewMessage =
  | ReadyMessage
  | { type: 'openArtifact'; path: string }
  | { type: 'openTask'; ledgerTaskId: string }
  | { type: 'refresh' }
  /** `decision` is one of `waiting.options`; `checkpoint` is the `waiting.name` the person saw. */
  | { type: 'decide'; decision: string; comment: string; checkpoint: string };

// ---------------------------------------------------------------------------------------
// Board: every task of a folder in columns by status (core/board/boardModel.ts)
// ---------------------------------------------------------------------------------------

export type { BoardColumnId };
export type BoardCardItem = BoardCard;

/** The board of one folder: its cards and who a card can be dragged to (assign). */
export interface BoardModel extends BoardSnapshot {
  folder: string;
  folderName: string;
  /** Plan runs going on (running or paused), oldest first: the strip above the columns. */
  plans?: PlanRunView[];
}

export type BoardHostMessage =
  | { type: 'board'; model: BoardModel }
  /**
   * What changed since the last `board` or `boardDelta` this page received: cards new or
   * different, ids gone, and the agents when they changed. A page without a model ignores it
   * (it gets a whole `board` after its `ready`).
   */
  | {
      type: 'boardDelta';
      upserts: BoardCardItem[];
      removed: string[];
      agents?: BoardModel['agents'];
      /** The plan runs going on, when they changed. */
      plans?: PlanRunView[];
    }
  /** The outcome of an assign or cancel (a refusal says why). */
  | ActedMessage
  | NavigateMessage
  | { type: 'error'; message: string };

export type BoardWebviewMessage =
  | ReadyMessage
  /** A card was clicked: its task detail, or a checkpoint's pipeline. */
  | { type: 'openCard'; id: string }
  | { type: 'assign'; taskId: number; agent: string }
  | { type: 'cancel'; taskId: number }
  /** A person answered the task's review requests from its "needs a person" card. */
  | { type: 'review'; taskId: number; verdict: 'approved' | 'dismissed' }
  | { type: 'refresh' }
  | PlanRunMessage
  /** A plan run's id was clicked: its workflow's Plan graph. */
  | { type: 'openPlan'; workflowId: number }
  /** The first render of a model finished: how long after the page started, and how many cards exist / are in the DOM. */
  | { type: 'painted'; ms: number; cards: number; rendered: number };

// ---------------------------------------------------------------------------------------
// Plan graph: a workflow's tasks and depends_on edges, laid out (core/board/planGraphLayout.ts)
// ---------------------------------------------------------------------------------------

export type PlanGraphNodeItem = PlanGraphNode;

/** A workflow's plan graph, laid out, in one folder; its newest plan run overlaid (null: never run). */
export interface PlanGraphViewModel extends PlanGraphModel {
  folder: string;
  folderName: string;
  run?: PlanRunView | null;
}

export type PlanGraphHostMessage =
  | { type: 'planGraph'; model: PlanGraphViewModel }
  /** The outcome of a Pause, Resume, Cancel or Approve (a refusal says why). */
  | ActedMessage
  | NavigateMessage
  | { type: 'error'; message: string };

export type PlanGraphWebviewMessage =
  ReadyMessage | { type: 'openTask'; taskId: number } | { type: 'refresh' } | PlanRunMessage;

// ---------------------------------------------------------------------------------------
// A plan run as people see it (src/views/planRunModel.ts): the Plan graph's overlay and the Board's strip
// ---------------------------------------------------------------------------------------

/** A leaf's state as a person reads it. */
export type PlanNodeState =
  'waiting' | 'queued' | 'running' | 'needs-person' | 'done' | 'failed' | 'skipped' | 'cancelled';

export type PlanRunAction = 'pause' | 'resume' | 'cancel';

/** A leaf of a plan run: a task (its key), a gate that waits for a person, or a tool call. */
export interface PlanRunLeafView {
  id: string;
  kind: 'task' | 'gate' | 'tool';
  taskKey: string | null;
  /** The plan graph's node it was compiled from (a task's gate belongs to the task's node), null for a tree given inline. */
  graphNode: string | null;
  state: PlanNodeState;
  agent: string | null;
  /** The run of its agent going on now (exec-<n>). */
  executionId: string | null;
  costUsd: number | null;
  reason: string | null;
}

export interface PlanRunView {
  runId: string;
  graphId: string | null;
  /** The workflow whose plan it runs (its Plan graph), null for a tree given inline. */
  workflowId: number | null;
  status: 'running' | 'paused' | 'succeeded' | 'failed' | 'cancelled';
  reason: string | null;
  startedBy: string | null;
  since: string;
  endedAt: string | null;
  progress: {
    leaves: number;
    done: number;
    failed: number;
    running: number;
    waiting: number;
    skipped: number;
    percent: number;
  };
  /** What its agents' runs cost so far. */
  costUsd: number;
  /** The buttons it has now. */
  actions: PlanRunAction[];
  leaves: PlanRunLeafView[];
}

/** A person steers a plan run from the Plan graph or the Board (recorded as theirs). */
export type PlanRunMessage =
  | { type: 'planRun'; runId: string; action: PlanRunAction }
  /** A gate leaf that waits for a person: approved (the run goes on) or refused (the gate fails). */
  | { type: 'planGate'; runId: string; nodeId: string; approve: boolean };

// ---------------------------------------------------------------------------------------
// Runs: agent runs (execution logs) with their cost, and one run's output as it grows
// ---------------------------------------------------------------------------------------

export type RunItem = ExecutionLog & { taskTitle: string | null };
export type ActivityEntry = ActivityItem;

export interface RunsModel {
  folder: string;
  folderName: string;
  /** Newest first, at most a few hundred. */
  runs: RunItem[];
  /** Instances running now. */
  running: RunningInstance[];
  /** What every run cost. */
  totals: CostTotals;
  /** The latest events a person follows (agent-ledger watch), newest last. */
  activity: ActivityEntry[];
}

/** A run's output: the lines of its log (redacted by the supervisor), appended as they come. */
export interface RunOutput {
  run: string;
  /** Lines to append; `reset`: the view clears what it showed first. */
  lines: { stream: 'stdout' | 'stderr' | 'meta'; text: string }[];
  reset: boolean;
  /** Why there is no output to show (no log file on this machine). */
  missing: string | null;
}

export type RunsHostMessage =
  | { type: 'runs'; model: RunsModel }
  | ({ type: 'runOutput' } & RunOutput)
  | NavigateMessage
  | { type: 'error'; message: string };

export type RunsWebviewMessage =
  | ReadyMessage
  /** Follow this run's output (null: stop following). */
  | { type: 'openRun'; run: string | null }
  | { type: 'openTask'; taskId: number }
  | { type: 'refresh' };

// ---------------------------------------------------------------------------------------
// Agents and sessions
// ---------------------------------------------------------------------------------------

export interface AgentItem {
  name: string;
  /** claude-code, codex, gemini-cli; null for a name seen only in sessions or assignments. */
  client: string | null;
  model: string | null;
  description: string | null;
  scope: { read: string[]; write: string[]; exclude: string[] } | null;
  cost: CostTotals | null;
  /** `1 running, 1 stale`: its running sessions counted by liveness (views/agentText.ts); null when none runs. */
  sessionCounts: string | null;
  sessions: {
    id: number;
    taskId: number;
    taskTitle: string;
    status: string;
    startedAt: string;
    endedAt: string | null;
    worktree: string | null;
    /** A running session's process seen from the server's machine (`stale`: gone; see sessionLiveness.ts). */
    liveness?: 'alive' | 'stale' | 'elsewhere' | 'unknown';
    /** The person who ended it (End Session on a stale session). */
    endedBy?: string;
  }[];
}

export interface AgentsModel {
  folder: string;
  folderName: string;
  agents: AgentItem[];
  running: RunningInstance[];
  handoffs: PendingHandoff[];
  problems: { file: string; message: string }[];
  /** The Definition of Done results End Session offers (session_end's). */
  dodResults: readonly string[];
}

export type AgentsHostMessage =
  { type: 'agents'; model: AgentsModel } | NavigateMessage | ActedMessage | { type: 'error'; message: string };

/** End Session: session_end as the page's person, with what the person says of the gone process. */
export interface EndSessionMessage {
  type: 'endSession';
  sessionId: number;
  exitCode: number;
  /** pending, merged, timeout, error; absent: no Definition of Done result. */
  dodResult?: string;
}

export type AgentsWebviewMessage =
  ReadyMessage | { type: 'openTask'; taskId: number } | { type: 'refresh' } | EndSessionMessage;

// ---------------------------------------------------------------------------------------
// Memory Bank
// ---------------------------------------------------------------------------------------

export interface MemoryItem {
  /** `<category>/<id>` */
  key: string;
  category: string;
  id: string;
  title: string;
  summary: string | null;
  status: string;
  file: string;
}

export interface MemoryModel {
  folder: string;
  folderName: string;
  entries: MemoryItem[];
  problems: { file: string; message: string }[];
}

export type MemoryHostMessage =
  | { type: 'memory'; model: MemoryModel }
  /** One entry's Markdown body (shown as text). */
  | { type: 'entry'; key: string; content: string }
  | NavigateMessage
  | { type: 'error'; message: string };

export type MemoryWebviewMessage = ReadyMessage | { type: 'openEntry'; key: string } | { type: 'refresh' };
