/**
 * Messages between the extension host and its webviews: types only, imported by both sides
 * (src/vscode/webviews/** and webview-ui/**). Every webview speaks the same envelope:
 *
 *   webview → host: `{ type: 'ready' }` once its script runs, then its own requests;
 *   host → webview: nothing before `ready` (pull-request-github's habit), then its data.
 *
 * A new webview adds its name to {@link WebviewKind} and a pair of message unions below.
 */

/** Which front end `webview-ui/main.ts` renders; the host writes it on `<body data-view>`. */
export type WebviewKind = 'taskDetail' | 'pipeline' | 'board' | 'planGraph';

/** Sent by every webview when its script has loaded and it can receive messages. */
export interface ReadyMessage {
  type: 'ready';
}

// ---------------------------------------------------------------------------------------
// Task detail
// ---------------------------------------------------------------------------------------

export type TaskStatusName = 'open' | 'in_progress' | 'done' | 'failed' | 'cancelled';
export type CompletionName = 'success' | 'partial_success' | 'failed';
export type FileChangeKind = 'added' | 'modified' | 'deleted' | 'renamed';

/** One changed file as the detail lists it. */
export interface ChangedFile {
  kind: FileChangeKind;
  /** Repository-relative path with `/` (the new path of a rename). */
  path: string;
  /** The old path of a rename. */
  from?: string;
  /** Outside every area the task declared (complete_task's scope check). */
  outOfScope: boolean;
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
  outcome: {
    summary: string;
    achievements?: string[];
    limitations?: string[];
    manual_review_needed?: boolean;
    manual_review_reason?: string;
    next_steps?: string[];
  } | null;
  timeline: TimelineItem[];
  /**
   * `recorded`: what complete_task measured; `live`: measured just now against the snapshot
   * (the task still runs); `none`: the task never started, so there is nothing to compare.
   */
  filesSource: 'recorded' | 'live' | 'none';
  files: ChangedFile[];
  warnings: string[];
  commits: { sha: string; subject: string }[];
  /** Rewind is possible (a Git snapshot, not in a worktree). */
  canRewind: boolean;
  lastRewind: { at: string; paths: string[]; undoable: boolean } | null;
}

export type TaskDetailHostMessage =
  | { type: 'taskDetail'; model: TaskDetailModel }
  /** The live file list is being measured (running tasks). */
  | { type: 'busy'; busy: boolean }
  | { type: 'error'; message: string };

export type TaskDetailWebviewMessage =
  | ReadyMessage
  | { type: 'openDiff'; file: ChangedFile }
  | { type: 'openTask'; taskId: number }
  | { type: 'refresh' }
  | { type: 'rewind' }
  | { type: 'undoRewind' }
  | { type: 'exportWorkflow' };

// ---------------------------------------------------------------------------------------
// Pipeline (seed 003)
// ---------------------------------------------------------------------------------------

export type PipelineStatusName = 'running' | 'awaiting_human' | 'completed' | 'abandoned';
export type PipelinePhaseStatus = 'pending' | 'in_progress' | 'completed' | 'skipped';
export type FindingSeverity = 'CRITICAL' | 'MAJOR' | 'MINOR' | 'INFO';

export interface PipelineFinding {
  severity: FindingSeverity;
  description: string;
}

/** An artifact of the pipeline folder; `path` is absolute (the host opens only paths of its own model). */
export interface PipelineArtifact {
  name: string;
  path: string;
  exists: boolean;
}

export interface PipelinePhaseItem {
  id: string;
  label: string;
  /** The flow's phase kind (`agent`, `review`, `checkpoint`, `implementation`…) or `setup`. */
  kind: string;
  status: PipelinePhaseStatus;
  /** The engine is at this phase. */
  current: boolean;
  /** A person's decision is awaited here (checkpoint, human gate or a revision limit). */
  waiting: boolean;
  startedAt: string | null;
  completedAt: string | null;
  durationMs: number;
  tokens: number;
  model: string | null;
  runs: number;
  /** Times the phase was sent back and run again. */
  revision: number;
  verdict: string | null;
  findings: PipelineFinding[];
  artifact: PipelineArtifact | null;
  /** For a checkpoint: the last decision taken on it. */
  decision: { decision: string; by: string; at: string } | null;
}

export interface PipelineTaskItem {
  id: string;
  title: string;
  mode: 'sequential' | 'parallel' | 'human';
  status: string;
  attempts: number;
  verdict: string | null;
  findings: PipelineFinding[];
  /** The ledger task (`task-12`) with its snapshot and exact files changed. */
  ledgerTaskId: string | null;
  filesChanged: number | null;
  /** A human gate waits on this task. */
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

export type BoardColumnId = 'open' | 'ready' | 'in_progress' | 'needs_person' | 'done' | 'failed';

export interface BoardCardItem {
  /** `task-12`, or `pipeline-3` for a pipeline waiting at a checkpoint or human gate. */
  id: string;
  kind: 'task' | 'checkpoint' | 'human_gate';
  column: BoardColumnId;
  taskId: number | null;
  title: string;
  status: string;
  result: string | null;
  agent: string | null;
  client: string | null;
  /** USD; null when no run reported one (shown blank). */
  cost: number | null;
  lastMilestone: string | null;
  progress: number | null;
  workflow: string | null;
  /** Why a person is needed (needs_person). */
  reason: string | null;
  /** The pipeline folder a checkpoint card opens. */
  pipeline: string | null;
  /** Keys of the unfinished tasks an open task waits for. */
  blockedBy: string[];
  /** Handoffs not accepted yet: who handed the task over, to whom (null: any agent). */
  handoffs: { id: string; from: string; to: string | null }[];
  /** Other running tasks whose write scopes or marked areas may touch the same files (the overlapping paths). */
  overlaps: { task: string; title: string | null; agent: string | null; paths: string[] }[];
  updatedAt: string;
}

export interface BoardModel {
  folder: string;
  folderName: string;
  cards: BoardCardItem[];
  /** Who a card can be dragged to (assign). */
  agents: { name: string; client: string | null }[];
}

export type BoardHostMessage =
  | { type: 'board'; model: BoardModel }
  /**
   * What changed since the last `board` or `boardDelta` this page received: cards new or
   * different, ids gone, and the agents when they changed. A page without a model ignores it
   * (it gets a whole `board` after its `ready`).
   */
  | { type: 'boardDelta'; upserts: BoardCardItem[]; removed: string[]; agents?: BoardModel['agents'] }
  /** The outcome of an assign or cancel (a refusal says why). */
  | { type: 'acted'; ok: boolean; text: string }
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
  /** The first render of a model finished: how long after the page started, and how many cards exist / are in the DOM. */
  | { type: 'painted'; ms: number; cards: number; rendered: number };

// ---------------------------------------------------------------------------------------
// Plan graph: a workflow's tasks and depends_on edges, laid out (core/board/planGraphLayout.ts)
// ---------------------------------------------------------------------------------------

export interface PlanGraphNodeItem {
  /** `task-12` */
  id: string;
  taskId: number;
  title: string;
  status: string;
  result: string | null;
  agent: string | null;
  progress: number | null;
  /** Centre. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlanGraphViewModel {
  folder: string;
  folderName: string;
  workflowId: number;
  workflowKey: string;
  name: string;
  nodes: PlanGraphNodeItem[];
  edges: { from: string; to: string; points: { x: number; y: number }[] }[];
  width: number;
  height: number;
}

export type PlanGraphHostMessage = { type: 'planGraph'; model: PlanGraphViewModel } | { type: 'error'; message: string };

export type PlanGraphWebviewMessage = ReadyMessage | { type: 'openTask'; taskId: number } | { type: 'refresh' };
