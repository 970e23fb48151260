import type { LedgerDb, SqlReader, WorkspaceTruth } from '../ports';
import type { CompletionStatus, DecisionCategory, IssueType, Outcome, Task } from './taskModel';
import type { PlanStep } from '../workflows/workflowModel';
import { isFinished } from './taskModel';
import { LedgerError, stateError } from '../errors';
import { notFound, parseId, taskKey, workflowKey } from '../ids';
import type { Clock } from '../time';
import { iso, secondsBetween } from '../time';
import { appendEvent } from '../events/eventLog';
import { getWorkflow, insertWorkflow, touchWorkflow } from '../workflows/workflowRepo';
import { childTasks, getTask, insertTask, updateTask } from './taskRepo';
import { insertDecision, insertIssue, insertMilestone, timelineCounts } from './timelineRepo';
import { verifyScope, withWriteScope } from './scopeCheck';
import { requireText, requireProgress, requireOneOf } from '../validate';
import { completionStatuses, decisionCategories, issueTypes } from './taskModel';
import type { CompleteTaskResult, StartTaskResult, StartWorkflowResult } from './trackingResults';
import { existingTaskId, startExistingTask } from './startExistingTask';

export interface StartWorkflowInput {
  name: string;
  description?: string;
  plan?: PlanStep[];
}

export interface StartTaskInput {
  /** Start this existing open task (from task_create) instead of creating one. */
  task_id?: string | number | null;
  workflow_id: string | number;
  parent_task_id?: string | number | null;
  name: string;
  goal: string;
  areas?: string[];
}

export interface LogDecisionInput {
  task_id: string | number;
  category: DecisionCategory;
  question: string;
  options_considered?: string[];
  chosen: string;
  reasoning: string;
  trade_offs?: string;
}

export interface LogIssueInput {
  task_id: string | number;
  type: IssueType;
  description: string;
  resolution: string;
  requires_human_review?: boolean;
}

export interface LogMilestoneInput {
  task_id: string | number;
  message: string;
  progress?: number;
  metadata?: Record<string, unknown>;
}

export interface CompleteTaskInput {
  task_id: string | number;
  status: CompletionStatus;
  outcome: Outcome;
  metadata?: Record<string, unknown>;
}

/**
 * The six tracking operations of seed 000. Every refusal is decided before anything is
 * written (and checked again inside the write, since another process may have moved first).
 */
export class TrackingService {
  constructor(
    private readonly db: LedgerDb,
    /** The truth a task is measured in: its worktree when it started in one, else the workspace. */
    private readonly truth: (task?: Task) => Promise<WorkspaceTruth>,
    private readonly clock: Clock,
  ) {}

  async startWorkflow(input: StartWorkflowInput): Promise<StartWorkflowResult> {
    const name = requireText('name', input.name);
    const now = iso(this.clock.now());
    const id = await this.db.write((tx) => {
      const id = insertWorkflow(tx, { name, description: input.description ?? null, plan: input.plan ?? [], kind: 'workflow', createdAt: now });
      appendEvent(tx, { ts: now, kind: 'workflow.started', workflowId: id, payload: { name } });
      return id;
    });
    return { workflow_id: workflowKey(id), created_at: now };
  }

  async startTask(input: StartTaskInput): Promise<StartTaskResult> {
    const name = requireText('name', input.name);
    const goal = requireText('goal', input.goal);
    const areas = (input.areas ?? []).map((a) => a.trim()).filter((a) => a.length > 0);
    const workflowId = parseId('workflow', input.workflow_id);
    const parentId = input.parent_task_id === undefined || input.parent_task_id === null || input.parent_task_id === '' ? null : parseId('task', input.parent_task_id);
    const existing = existingTaskId(input.task_id);
    if (existing !== null) return startExistingTask(this.db, () => this.truth(), this.clock, { taskId: existing, workflowId, parentId, name, goal, areas }, checkStartable);
    this.db.read((db) => checkStartable(db, workflowId, parentId));

    const truth = await this.truth();
    const snapshot = await truth.snapshot(`${workflowKey(workflowId)}: ${name}`);
    const now = iso(this.clock.now());
    const id = await this.db.write((tx) => {
      checkStartable(tx, workflowId, parentId);
      const id = insertTask(tx, { workflowId, parentId, title: name, goal, areas, status: 'in_progress', snapshot, startedAt: now }, now);
      touchWorkflow(tx, workflowId, now);
      appendEvent(tx, { ts: now, kind: 'task.started', workflowId, taskId: id, payload: { name, parentId, snapshot: snapshot.id } });
      return id;
    });
    await keepQuietly(truth, snapshot, taskKey(id));
    return {
      task_id: taskKey(id),
      snapshot_id: snapshot.id,
      snapshot_type: snapshot.type,
      started_at: now,
      workflow_id: workflowKey(workflowId),
      parent_task_id: parentId === null ? null : taskKey(parentId),
    };
  }

  async logDecision(input: LogDecisionInput): Promise<{ task_id: string; decision_id: number; logged_at: string }> {
    const taskId = parseId('task', input.task_id);
    const category = requireOneOf('category', input.category, decisionCategories);
    const question = requireText('question', input.question);
    const chosen = requireText('chosen', input.chosen);
    const reasoning = requireText('reasoning', input.reasoning);
    const now = iso(this.clock.now());
    const decisionId = await this.db.write((tx) => {
      const task = requireLoggable(tx, taskId, 'log a decision on');
      const id = insertDecision(tx, {
        taskId,
        category,
        question,
        options: input.options_considered ?? [],
        chosen,
        reasoning,
        tradeOffs: input.trade_offs ?? null,
        createdAt: now,
      });
      updateTask(tx, taskId, {}, now);
      appendEvent(tx, { ts: now, kind: 'decision.logged', workflowId: task.workflowId, taskId, entity: 'decision', entityId: String(id), payload: { category, chosen } });
      return id;
    });
    return { task_id: taskKey(taskId), decision_id: decisionId, logged_at: now };
  }

  async logIssue(input: LogIssueInput): Promise<{ task_id: string; issue_id: number; logged_at: string; requires_human_review: boolean }> {
    const taskId = parseId('task', input.task_id);
    const type = requireOneOf('type', input.type, issueTypes);
    const description = requireText('description', input.description);
    const resolution = requireText('resolution', input.resolution);
    const review = input.requires_human_review === true;
    const now = iso(this.clock.now());
    const issueId = await this.db.write((tx) => {
      const task = requireLoggable(tx, taskId, 'log an issue on');
      const id = insertIssue(tx, { taskId, type, description, resolution, requiresHumanReview: review, createdAt: now });
      updateTask(tx, taskId, {}, now);
      appendEvent(tx, {
        ts: now,
        kind: 'issue.logged',
        workflowId: task.workflowId,
        taskId,
        entity: 'issue',
        entityId: String(id),
        payload: { type, description, requiresHumanReview: review },
      });
      return id;
    });
    return { task_id: taskKey(taskId), issue_id: issueId, logged_at: now, requires_human_review: review };
  }

  async logMilestone(input: LogMilestoneInput): Promise<{ task_id: string; milestone_id: number; progress: number | null; logged_at: string }> {
    const taskId = parseId('task', input.task_id);
    const message = requireText('message', input.message);
    const progress = input.progress === undefined || input.progress === null ? null : requireProgress(input.progress);
    const now = iso(this.clock.now());
    const milestoneId = await this.db.write((tx) => {
      const task = requireLoggable(tx, taskId, 'log a milestone on');
      const id = insertMilestone(tx, { taskId, message, progress, metadata: input.metadata ?? null, createdAt: now });
      updateTask(tx, taskId, { lastMilestone: message, ...(progress === null ? {} : { progress }) }, now);
      appendEvent(tx, { ts: now, kind: 'milestone.logged', workflowId: task.workflowId, taskId, entity: 'milestone', entityId: String(id), payload: { message, progress } });
      return id;
    });
    return { task_id: taskKey(taskId), milestone_id: milestoneId, progress, logged_at: now };
  }

  async completeTask(input: CompleteTaskInput): Promise<CompleteTaskResult> {
    const taskId = parseId('task', input.task_id);
    const status = requireOneOf('status', input.status, completionStatuses);
    if (!input.outcome || typeof input.outcome !== 'object') throw new LedgerError('ValidationError', 'outcome is required: { summary: "2-4 sentences", achievements: [], limitations: [] }');
    requireText('outcome.summary', input.outcome.summary);
    const task = this.db.read((db) => requireCompletable(db, taskId));
    const snapshot = task.snapshot;
    if (!snapshot) throw stateError(`${taskKey(taskId)} was never started, so there is no snapshot to compare with; start it with start_task first`, { taskId });

    const truth = await this.truth(task);
    const changes = await truth.changesSince(snapshot);
    const location = { repositoryRoot: truth.kind === 'git' ? truth.root : null, workspacePath: truth.workspacePath };
    const verification = withWriteScope(verifyScope(task.areas, changes.files), task.writeScope, changes.files);
    const running = this.db.read((db) => childTasks(db, taskId).filter((c) => !isFinished(c.status)));
    if (running.length) verification.warnings.push(`⚠️ ${running.length} sub-task(s) still running: ${running.map((c) => taskKey(c.id)).join(', ')}`);

    const end = this.clock.now();
    const now = iso(end);
    const duration = secondsBetween(task.startedAt ?? task.createdAt, end);
    // The end snapshot is pinned while the write runs: it only protects the object from gc.
    const pinned = keepQuietly(truth, changes.to, `${taskKey(taskId)}-end`);
    const counts = await this.db.write((tx) => {
      const current = requireCompletable(tx, taskId);
      updateTask(
        tx,
        taskId,
        {
          status: status === 'failed' ? 'failed' : 'done',
          result: status,
          completedAt: now,
          durationSeconds: duration,
          outcome: input.outcome,
          metadata: input.metadata ?? null,
          filesChanged: changes.files,
          verification,
          commits: changes.commits,
          endSnapshotId: changes.to.id,
          repositoryRoot: location.repositoryRoot,
          workspacePath: location.workspacePath,
          ...(status === 'success' ? { progress: 100 } : {}),
        },
        now,
      );
      if (current.workflowId !== null) touchWorkflow(tx, current.workflowId, now);
      appendEvent(tx, {
        ts: now,
        kind: 'task.completed',
        workflowId: current.workflowId,
        taskId,
        payload: { status, manualReviewNeeded: input.outcome.manual_review_needed === true, scopeMatch: verification.scope_match },
      });
      return timelineCounts(tx, taskId);
    });
    await pinned;
    return {
      task_id: taskKey(taskId),
      status,
      duration_seconds: duration,
      files_changed: changes.files,
      verification,
      commits: changes.commits,
      counts,
      snapshot_id: snapshot.id,
      end_snapshot_id: changes.to.id,
      completed_at: now,
      ...location,
    };
  }
}

function checkStartable(db: SqlReader, workflowId: number, parentId: number | null): void {
  if (!getWorkflow(db, workflowId)) throw notFound('workflow', workflowKey(workflowId));
  if (parentId === null) return;
  const parent = getTask(db, parentId);
  if (!parent) throw notFound('task', parentId);
  if (parent.workflowId !== workflowId) {
    throw new LedgerError('ValidationError', `parent task ${taskKey(parentId)} belongs to ${parent.workflowId === null ? 'no workflow' : workflowKey(parent.workflowId)}, not ${workflowKey(workflowId)}; pass the parent's workflow_id`, {
      parentTaskId: taskKey(parentId),
    });
  }
  if (isFinished(parent.status)) throw stateError(`parent task ${taskKey(parentId)} is already ${parent.status}; sub-tasks can only be started under a task that is still running`, { parentTaskId: taskKey(parentId) });
}

function requireLoggable(db: SqlReader, taskId: number, what: string): Task {
  const task = getTask(db, taskId);
  if (!task) throw notFound('task', taskId);
  if (isFinished(task.status)) throw stateError(`cannot ${what} ${taskKey(taskId)}: it is already ${task.status} (completed ${task.completedAt}); start a new task for further work`, { taskId: taskKey(taskId), status: task.status });
  return task;
}

function requireCompletable(db: SqlReader, taskId: number): Task {
  const task = getTask(db, taskId);
  if (!task) throw notFound('task', taskId);
  if (isFinished(task.status)) throw stateError(`${taskKey(taskId)} is already ${task.status} (completed ${task.completedAt}); a task is completed once`, { taskId: taskKey(taskId), status: task.status });
  return task;
}

/** Pins a snapshot against `git gc`; the ledger stays correct without it, so only report failures. */
async function keepQuietly(truth: WorkspaceTruth, snapshot: Parameters<WorkspaceTruth['keep']>[0], name: string): Promise<void> {
  try {
    await truth.keep(snapshot, name);
  } catch (err) {
    console.error(`[agent-ledger] could not pin snapshot ${snapshot.id} as ${name}:`, err);
  }
}
