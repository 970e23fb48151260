import type { CommitInfo, FileChanges, Snapshot } from '../ports/workspaceTruth';

/** A task and what happens during it: the enums are the single source for contracts, views and the webviews' protocol. */
export const taskStatuses = ['open', 'in_progress', 'done', 'failed', 'cancelled'] as const;
export const completionStatuses = ['success', 'partial_success', 'failed'] as const;
export const decisionCategories = ['architecture', 'library_choice', 'trade_off', 'workaround', 'other'] as const;
export const issueTypes = [
  'documentation_gap',
  'bug_encountered',
  'dependency_conflict',
  'unclear_requirement',
  'other',
] as const;
export const testsStatuses = ['passed', 'failed', 'not_run'] as const;
export const priorities = ['low', 'medium', 'high', 'critical'] as const;
export const taskTypes = ['task', 'feature', 'bug', 'refactor'] as const;
export const assigneeTypes = ['ai', 'human'] as const;

export type TaskStatus = (typeof taskStatuses)[number];
export type CompletionStatus = (typeof completionStatuses)[number];
export type DecisionCategory = (typeof decisionCategories)[number];
export type IssueType = (typeof issueTypes)[number];
export type Priority = (typeof priorities)[number];
export type TaskType = (typeof taskTypes)[number];
export type AssigneeType = (typeof assigneeTypes)[number];

export interface Outcome {
  summary: string;
  achievements?: string[];
  limitations?: string[];
  manual_review_needed?: boolean;
  manual_review_reason?: string;
  next_steps?: string[];
}

export interface Verification {
  scope_match: boolean;
  unexpected_files: string[];
  warnings: string[];
}

export interface Task {
  id: number;
  workflowId: number | null;
  parentId: number | null;
  title: string;
  goal: string | null;
  description: string | null;
  status: TaskStatus;
  /** How complete_task ended it. */
  result: CompletionStatus | null;
  priority: Priority;
  type: TaskType;
  labels: string[];
  assignee: string | null;
  assigneeType: AssigneeType | null;
  areas: string[];
  progress: number | null;
  lastMilestone: string | null;
  snapshot: Snapshot | null;
  endSnapshotId: string | null;
  startedAt: string | null;
  completedAt: string | null;
  durationSeconds: number | null;
  outcome: Outcome | null;
  metadata: Record<string, unknown> | null;
  filesChanged: FileChanges | null;
  verification: Verification | null;
  commits: CommitInfo[] | null;
  /** The task-management contract: the session whose work the task shows (the latest one started). */
  selectedSessionId: number | null;
  /** Workspace-relative worktree the snapshot was taken in; complete_task measures there. */
  worktree: string | null;
  /** Write scopes of the agents that worked on the task; complete_task flags changes outside all of them. */
  writeScope: WriteScope[] | null;
  /**
   * Where complete_task measured `filesChanged`: the Git repository's top level (the worker's
   * worktree for a task run in one; null outside Git or before completion).
   */
  repositoryRoot: string | null;
  /** The workspace folder inside `repositoryRoot` that `filesChanged` paths are relative to ('' = the root). */
  workspacePath: string | null;
  /** The machine the task started on (where its snapshot lives) and its OS user; null before v8. */
  machineId: string | null;
  osUser: string | null;
  /** A person stopped the task's run and holds it: no runner launches it until it is resumed. */
  hold: TaskHold | null;
  /** Why the runner does not start the task now (its last word on it); null when nothing holds it. */
  waiting: TaskWaiting | null;
  createdAt: string;
  updatedAt: string;
}

/** Who holds a task, since when (`stopped by <person>`). */
export interface TaskHold {
  by: string;
  at: string;
}

/** The runner's reason for not starting a task now, as it last said it. */
export interface TaskWaiting {
  /** dependencies, conflict, coolingDown, running (claimed elsewhere), clientMissing, maxParallel, launchFailed. */
  reason: string;
  /** One line a person reads. */
  detail: string;
  /** The tasks it waits for or would collide with (`task-6`). */
  blockedBy: string[];
  since: string;
}

/** The write scope of one agent, as recorded on a task when a session of that agent starts. */
export interface WriteScope {
  agent: string;
  write: string[];
  exclude: string[];
}

export interface Decision {
  id: number;
  taskId: number;
  category: DecisionCategory;
  question: string;
  options: string[];
  chosen: string;
  reasoning: string;
  tradeOffs: string | null;
  createdAt: string;
}

export interface Issue {
  id: number;
  taskId: number;
  type: IssueType;
  description: string;
  resolution: string;
  requiresHumanReview: boolean;
  createdAt: string;
}

export interface Milestone {
  id: number;
  taskId: number;
  message: string;
  progress: number | null;
  metadata: Record<string, unknown> | null;
  createdAt: string;
}

/** A timeline entry of a task, in time order. */
export type TimelineEntry =
  ({ kind: 'decision' } & Decision) | ({ kind: 'issue' } & Issue) | ({ kind: 'milestone' } & Milestone);

export function isFinished(status: TaskStatus): boolean {
  return status === 'done' || status === 'failed' || status === 'cancelled';
}
