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
export type WebviewKind = 'taskDetail';

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
