import type { Task } from '../core/tasks/taskModel';
import type { WorkflowSummary } from '../core/workflows/workflowRepo';
import { taskKey } from '../core/ids';
import { elapsedSeconds, formatDuration } from '../core/format';

/**
 * The Tasks view's words and order as plain functions (no `vscode`), so unit tests read them with
 * literal inputs: what a row says, which rows show, in which order.
 */

export function statusText(task: Pick<Task, 'status' | 'result'>): string {
  if (task.status === 'done' && task.result && task.result !== 'success') return task.result.replace('_', ' ');
  return task.status.replace('_', ' ');
}

/** What a person may be asked for on the row, first: a review, a rewound task, a scope warning. */
export interface TaskMarks {
  /** A person answered the completion's review request. */
  completionReviewed?: boolean;
  /** The task's changes were rewound and can be restored (Undo Rewind). */
  rewound?: boolean;
}

/**
 * `needs review · in progress 40% · task-3 · 2m 05s · high · bug · @coder · auth, backend`: what
 * needs a person and the state first, where a narrow side bar still shows them; the id after.
 */
export function taskDescription(task: Task, now = Date.now(), marks: TaskMarks = {}): string {
  const parts: string[] = [];
  if (task.outcome?.manual_review_needed) parts.push(marks.completionReviewed ? 'reviewed' : 'needs review');
  // Why it does not move: a person's hold, or the runner's reason.
  if (task.hold) parts.push(`held (stopped by ${task.hold.by})`);
  else if (task.waiting && task.status === 'in_progress') parts.push(`waiting: ${waitingWords(task.waiting.reason)}`);
  if (marks.rewound) parts.push('rewound');
  if (task.verification && !task.verification.scope_match) parts.push('⚠ out of scope');
  parts.push(
    task.status === 'in_progress' && task.progress !== null
      ? `${statusText(task)} ${task.progress}%`
      : statusText(task),
  );
  parts.push(taskKey(task.id));
  const seconds =
    task.durationSeconds ??
    (task.status === 'in_progress' && task.startedAt ? elapsedSeconds(task.startedAt, now) : null);
  if (seconds !== null) parts.push(formatDuration(seconds));
  // The task-management contract's fields. Their defaults (medium, task) would repeat on every row: the tooltip has them.
  if (task.priority && task.priority !== 'medium') parts.push(task.priority);
  if (task.type && task.type !== 'task') parts.push(task.type);
  if (task.assignee) parts.push(`@${task.assignee}`);
  if (task.labels?.length) parts.push(task.labels.join(', '));
  return parts.join(' · ');
}

/**
 * The workflows the Tasks view lists, in an order that does not move under the pointer: newest
 * first by id (a write to a workflow does not re-sort it). A pipeline's own workflow is the
 * Pipelines view's: it is left out unless tasks were filed in it.
 */
export function listedWorkflows<W extends Pick<WorkflowSummary, 'id' | 'kind' | 'taskCount'>>(
  workflows: readonly W[],
): W[] {
  return workflows.filter((w) => w.kind !== 'pipeline' || w.taskCount > 0).sort((a, b) => b.id - a.id);
}

/** The Tasks view's filter: which rows a person hides. */
export interface TaskFilter {
  hideDone?: boolean;
  /** Only tasks that wait for a person: a review not answered, a human assignee, a failure. */
  needsMe?: boolean;
  /** Only this agent's (assignee) tasks. */
  agent?: string;
}

export function filterActive(f: TaskFilter): boolean {
  return !!(f.hideDone || f.needsMe || f.agent);
}

/** Whether the row shows under the filter. A task with shown sub-tasks shows (the caller knows). */
export function taskShown(
  task: Pick<Task, 'status' | 'result' | 'assignee' | 'assigneeType' | 'outcome'>,
  f: TaskFilter,
  completionReviewed = false,
): boolean {
  if (f.hideDone && (task.status === 'done' || task.status === 'cancelled') && !needsPerson(task, completionReviewed))
    return false;
  if (f.needsMe && !needsPerson(task, completionReviewed)) return false;
  if (f.agent && task.assignee !== f.agent) return false;
  return true;
}

function needsPerson(
  task: Pick<Task, 'status' | 'result' | 'assignee' | 'assigneeType' | 'outcome'>,
  completionReviewed: boolean,
): boolean {
  if (task.outcome?.manual_review_needed && !completionReviewed) return true;
  if (task.status === 'failed') return true;
  return task.assigneeType === 'human' && task.status !== 'done' && task.status !== 'cancelled';
}

/** The filter in a few words for the view's description: `hiding done · needs me · @coder`. */
export function filterText(f: TaskFilter): string {
  return [f.hideDone ? 'hiding done' : '', f.needsMe ? 'needs me' : '', f.agent ? `@${f.agent}` : '']
    .filter(Boolean)
    .join(' · ');
}

/** The runner's reason for not starting a task, in a few words. */
export function waitingWords(reason: string): string {
  switch (reason) {
    case 'dependencies':
      return 'dependencies not done';
    case 'conflict':
      return 'overlaps a running task';
    case 'coolingDown':
      return 'cooling down after a failed run';
    case 'running':
      return 'claimed elsewhere';
    case 'clientMissing':
      return 'its client is not installed';
    case 'maxParallel':
      return 'too many agents running';
    default:
      return reason;
  }
}
